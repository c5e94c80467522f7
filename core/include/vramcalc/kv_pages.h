// vLLM's hybrid KV cache manager (core/ESTIMATION.md section 5.7): the layers of each kind
// (full attention, a sliding window, a recurrent state) share pages of one size, and a request
// pins whole blocks of every group. Read from vLLM's vllm/v1/core/kv_cache_utils.py
// (get_kv_cache_groups, unify_kv_cache_spec_page_size, _get_kv_cache_groups_uniform_page_size,
// get_num_blocks, get_max_concurrency_for_kv_cache_config), vllm/v1/kv_cache_interface.py
// (max_memory_usage_bytes of each spec) and vllm/model_executor/models/config.py
// (HybridAttentionMambaModelConfig: the attention block raised until a page holds a state).
#ifndef VRAMCALC_KV_PAGES_H_
#define VRAMCALC_KV_PAGES_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "vramcalc/model_spec.h"

namespace vramcalc {

// The layers of one kind and size on one device: their cache per token (attention) or their state
// per sequence, how many tokens one of their blocks holds once every page has the same size, and
// how many groups of KvPages::group_layers they fill.
struct KvPageSpec {
  LayerKind kind = LayerKind::kFull;  // kFull (full and latent attention), kWindow or kState
  int64_t window_tokens = 0;
  double bytes_per_token = 0;  // attention
  double state_bytes = 0;      // state, before its page is padded to the common size
  int64_t layers = 0;
  int64_t block_tokens = 0;    // attention
  int64_t groups = 0;
};

// What a request of a context pins: blocks, each one page of every group's layer slot.
struct KvPageRequest {
  int64_t max_num_batched_tokens = 0;  // a window keeps the last window − 1 + these tokens
  int64_t state_blocks = 1;            // per state group: 1, 2 with prefix caching ("align")
};

struct KvPages {
  static constexpr std::size_t kMaxSpecs = kMaxWindowSizes + 3;
  std::array<KvPageSpec, kMaxSpecs> specs{};
  std::size_t spec_count = 0;
  double page_bytes = 0;       // one layer's block, the same for every spec
  int64_t group_layers = 0;    // layer slots per group (padding included)
  int64_t padding_layers = 0;  // the slots no layer fills
  int64_t block_tokens = 0;    // the attention block (16, or raised so that a page holds a state)

  std::span<const KvPageSpec> used() const { return std::span<const KvPageSpec>(specs).first(spec_count); }
  // One block id: a page in each of the group_layers slots.
  double BlockBytes() const { return page_bytes * static_cast<double>(group_layers); }
  int64_t Groups() const;
  // max_memory_usage_bytes over the groups, in blocks: full attention cdiv(L, block), a window
  // cdiv(min(window − 1 + batched tokens, L), block) + 1, a state its state blocks.
  int64_t BlocksPerRequest(int64_t context_tokens, const KvPageRequest& request) const;
  // The longest request `blocks` blocks admit (vLLM's "estimated maximum model length"), up to `cap`.
  int64_t LongestRequest(int64_t blocks, const KvPageRequest& request, int64_t cap) const;
};

// The pages of `model`'s layers on one of `head_divisor` tensor-parallel devices, with KV heads
// split as KvLayoutOf splits them and the state divided among the devices: attention caches
// kv_bytes_per_element per element, a state state_bytes_per_element (its float32 elements 4 B).
// nullopt where vLLM's allocator is not modelled: compressed groups and indexer keys (DeepSeek
// V3.2 and V4 keep further specs of their own) or pages whose sizes do not divide.
std::optional<KvPages> KvPagesOf(const ModelSpec& model, double kv_bytes_per_element, double state_bytes_per_element,
                                 int64_t block_tokens, int64_t head_divisor);

}  // namespace vramcalc

#endif  // VRAMCALC_KV_PAGES_H_
