// The KV pool an engine preallocates (vLLM, SGLang; core/ESTIMATION.md sections 5.5 and 5.7),
// beside the simulator's figures: the tokens and GB it logs at start-up and, for vLLM's hybrid
// allocator, how many requests of the chosen context it holds at once, what one of them pins,
// the longest it admits and the layer groups' padding. It comes with vramcalc-full.wasm, which
// computes the pool (the first module leaves it out).
import { byId, el, put, putPart } from '../dom.js';
import * as fmt from '../format.js';

/** The pages' line under the pool's figure, made when first needed. */
function pagesLine(root) {
  const existing = byId(root, 'kv-pages');
  if (existing) return existing;
  const line = el('dd', { class: 'sub', id: 'kv-pages', 'data-testid': 'kv-pages', hidden: true });
  byId(root, 'kv-pool-gib')?.after(line);
  return line;
}

/** What vLLM's blocks mean for requests of the context: how many at once, or that none starts. */
function pagesText(pool, context, { t, lang }) {
  const { pages } = pool;
  const values = {
    concurrency: fmt.fixed(lang, pages.concurrency, 2),
    context: fmt.integer(lang, context),
    request: fmt.gb(lang, pages.request_gib),
    pool: fmt.gb(lang, pool.gib),
    longest: fmt.integer(lang, pages.longest_request),
  };
  const parts = [t(pages.concurrency < 1 ? 'pool.refuses' : 'pool.pages', values)];
  if (pages.padding_layers > 0) {
    parts.push(t('pool.padding', { groups: pages.groups, layers: pages.group_layers, padding: pages.padding_layers }));
  }
  return fmt.keepUnits(parts.join(' · '));
}

/** Shows the pool of `response` (hidden where the engine keeps none or the answer has no pool section). */
export function renderKvPool(root, response, view) {
  const pool = response.pool ?? null;
  const tokens = putPart(root, 'kv-pool', pool ? view.t('pool.tokens', { tokens: fmt.integer(view.lang, pool.tokens) }) : '',
    pool?.tokens ?? 0);
  const figure = tokens?.closest('.figure');
  if (!figure) return;
  if (figure.hidden === Boolean(pool)) figure.hidden = !pool;
  putPart(root, 'kv-pool-gib', pool ? view.t('pool.gib', { gib: fmt.gb(view.lang, pool.gib) }) : '');
  const pages = pool?.pages ?? null;
  const line = pagesLine(root);
  put(line, pages ? pagesText(pool, response.simulator.context, view) : '');
  line.classList.toggle('refuses', Boolean(pages && pages.concurrency < 1));
  if (line.hidden === Boolean(pages)) line.hidden = !pages;
}
