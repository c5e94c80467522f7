#include "vramcalc/kv_pages.h"

#include <algorithm>
#include <cmath>

#include "vramcalc/estimate.h"

namespace vramcalc {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// What a layer group keeps on one device, as vLLM's spec of its layers: attention heads split
// among the devices (at least one each; a latent stays whole), a state divided among them.
// kind kNone: the group keeps nothing (layers sharing an earlier cache, layers without a mixer).
KvPageSpec SpecOf(const LayerGroup& g, double kv_bytes, double state_bytes, int64_t divisor, bool windows) {
  KvPageSpec spec{.kind = LayerKind::kNone, .layers = g.layers};
  if (g.kind == LayerKind::kState) {
    spec.kind = LayerKind::kState;
    spec.state_bytes = StateBytesPerLayer(g, state_bytes) / static_cast<double>(divisor);
    return spec;
  }
  const int64_t heads = KvHeadsOnDevice(g, divisor);
  if (heads == 0 || g.key_dim == 0) return spec;
  spec.kind = windows && g.window_tokens > 0 ? LayerKind::kWindow : LayerKind::kFull;
  spec.window_tokens = spec.kind == LayerKind::kWindow ? g.window_tokens : 0;
  spec.bytes_per_token = static_cast<double>(heads * (g.key_dim + g.value_dim)) * kv_bytes;
  return spec;
}

bool SameSpec(const KvPageSpec& a, const KvPageSpec& b) {
  return a.kind == b.kind && a.window_tokens == b.window_tokens && a.bytes_per_token == b.bytes_per_token &&
         a.state_bytes == b.state_bytes;
}

// Layers of one spec join its entry (vLLM groups layer names by identical spec); false when a
// model has more kinds than the table holds.
bool Add(KvPages& pages, const KvPageSpec& spec) {
  const auto end = pages.specs.begin() + static_cast<std::ptrdiff_t>(pages.spec_count);
  const auto same = std::find_if(pages.specs.begin(), end, [&](const KvPageSpec& s) { return SameSpec(s, spec); });
  if (same != end) {
    same->layers += spec.layers;
    return true;
  }
  if (pages.spec_count == KvPages::kMaxSpecs) return false;
  *end = spec;
  ++pages.spec_count;
  return true;
}

// Full attention of different sizes only (UniformTypeKVCacheSpecs): one group whose block holds
// every layer's page.
void MergeFullAttention(KvPages& pages) {
  const std::span<const KvPageSpec> specs = pages.used();
  if (specs.size() < 2 || !std::all_of(specs.begin(), specs.end(), [](const KvPageSpec& s) { return s.kind == LayerKind::kFull; })) {
    return;
  }
  double bytes_per_token = 0;
  for (const KvPageSpec& s : specs) bytes_per_token += s.bytes_per_token * static_cast<double>(s.layers);
  pages.specs[0] = KvPageSpec{.kind = LayerKind::kFull, .bytes_per_token = bytes_per_token, .layers = 1};
  pages.spec_count = 1;
}

// One page size for every spec: the attention block grows until one page of the first attention
// spec holds the largest state (in multiples of the base block), a state's page is padded to it,
// and a smaller attention page holds proportionally more tokens (unify_kv_cache_spec_page_size).
bool UnifyPages(KvPages& pages, int64_t base_block) {
  const std::span<KvPageSpec> specs = std::span<KvPageSpec>(pages.specs).first(pages.spec_count);
  const auto attention = std::find_if(specs.begin(), specs.end(), [](const KvPageSpec& s) { return s.kind != LayerKind::kState; });
  double state = 0;
  for (const KvPageSpec& s : specs) state = std::max(state, s.state_bytes);
  pages.block_tokens = base_block;
  if (attention == specs.end()) {
    pages.page_bytes = state;
    return true;
  }
  const auto per_token = static_cast<int64_t>(attention->bytes_per_token);
  if (state > 0) pages.block_tokens = base_block * CeilDiv(static_cast<int64_t>(std::ceil(state)), base_block * per_token);
  int64_t page = 0;
  for (const KvPageSpec& s : specs) page = std::max(page, pages.block_tokens * static_cast<int64_t>(s.bytes_per_token));
  for (KvPageSpec& s : specs) {
    const int64_t own = pages.block_tokens * static_cast<int64_t>(s.bytes_per_token);
    if (s.kind == LayerKind::kState) continue;
    if (own == 0 || page % own != 0) return false;  // vLLM: NotImplementedError
    s.block_tokens = pages.block_tokens * (page / own);
  }
  pages.page_bytes = static_cast<double>(page);
  return true;
}

// Groups of the fewest layers of one spec (or of the most, when no spec has 1.5 times another's
// layers), each spec's layers in as many groups as they fill, the rest padding.
void Group(KvPages& pages) {
  const std::span<KvPageSpec> specs = std::span<KvPageSpec>(pages.specs).first(pages.spec_count);
  const auto [fewest, most] =
      std::minmax_element(specs.begin(), specs.end(), [](const KvPageSpec& a, const KvPageSpec& b) { return a.layers < b.layers; });
  pages.group_layers = static_cast<double>(most->layers) < 1.5 * static_cast<double>(fewest->layers) ? most->layers : fewest->layers;
  pages.padding_layers = 0;
  for (KvPageSpec& s : specs) {
    s.groups = CeilDiv(s.layers, pages.group_layers);
    pages.padding_layers += s.groups * pages.group_layers - s.layers;
  }
}

}  // namespace

int64_t KvPages::Groups() const {
  int64_t groups = 0;
  for (const KvPageSpec& s : used()) groups += s.groups;
  return groups;
}

int64_t KvPages::BlocksPerRequest(int64_t context_tokens, const KvPageRequest& request) const {
  int64_t blocks = 0;
  for (const KvPageSpec& s : used()) {
    int64_t per_group = request.state_blocks;
    if (s.kind == LayerKind::kFull) per_group = CeilDiv(context_tokens, s.block_tokens);
    if (s.kind == LayerKind::kWindow) {
      const int64_t kept = std::min(s.window_tokens - 1 + request.max_num_batched_tokens, context_tokens);
      per_group = CeilDiv(kept, s.block_tokens) + 1;  // the window need not start at a block's edge
    }
    blocks += s.groups * per_group;
  }
  return blocks;
}

int64_t KvPages::LongestRequest(int64_t blocks, const KvPageRequest& request, int64_t cap) const {
  if (BlocksPerRequest(1, request) > blocks) return 0;
  if (BlocksPerRequest(cap, request) <= blocks) return cap;
  int64_t fits = 1, fails = cap;
  while (fails - fits > 1) {
    const int64_t middle = fits + (fails - fits) / 2;
    (BlocksPerRequest(middle, request) <= blocks ? fits : fails) = middle;
  }
  return fits;
}

std::optional<KvPages> KvPagesOf(const ModelSpec& model, double kv_bytes_per_element, double state_bytes_per_element,
                                 int64_t block_tokens, int64_t head_divisor) {
  KvPages pages;
  // Chunked local attention switches the hybrid manager off: every layer keeps the whole context.
  const bool windows = std::none_of(model.layer_groups.begin(), model.layer_groups.end(),
                                    [](const LayerGroup& g) { return g.kind == LayerKind::kChunked; });
  for (const LayerGroup& g : model.layer_groups) {
    if (g.kind == LayerKind::kCompressed || g.index_dim > 0) return std::nullopt;
    const KvPageSpec spec =
        SpecOf(g, kv_bytes_per_element, state_bytes_per_element, std::max<int64_t>(1, head_divisor), windows);
    if (spec.kind != LayerKind::kNone && !Add(pages, spec)) return std::nullopt;
  }
  if (pages.spec_count == 0) return std::nullopt;
  MergeFullAttention(pages);
  if (!UnifyPages(pages, block_tokens)) return std::nullopt;
  Group(pages);
  return pages;
}

}  // namespace vramcalc
