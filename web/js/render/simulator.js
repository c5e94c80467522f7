// The simulator section: fit, breakdown bar, figures and the KV-compression sentence.
import { put } from '../dom.js';
import * as fmt from '../format.js';

const $ = (id) => document.getElementById(id);

// The KV-compression sentence for each family; the reference page's is grouped heads.
const SAVING_KEYS = {
  grouped_heads: 'sim.kv_saving',
  latent: 'sim.kv_saving.latent',
  window: 'sim.kv_saving.window',
  grouped_heads_window: 'sim.kv_saving.grouped_heads_window',
  none: 'sim.kv_saving.none',
};

export function renderSimulator(response, { t, lang, catalog }) {
  const sim = response.simulator;
  const model = response.model;
  const kvLabel = catalog.kv_dtypes.find((k) => k.id === sim.kv_dtype)?.label ?? sim.kv_dtype;

  put($('fit'), sim.fit_label, sim.fit);
  $('fit').className = `fit fit-${sim.fit}`;

  const shares = sim.share_pct;
  const bar = $('bar');
  bar.style.setProperty('--share-weights', `${shares.weights}%`);
  bar.style.setProperty('--share-kv', `${shares.kv_cache}%`);
  bar.style.setProperty('--share-overhead', `${shares.overhead}%`);
  const shareText = {
    weights: `${fmt.share(lang, shares.weights)}%`,
    kv: `${fmt.share(lang, shares.kv_cache)}%`,
    overhead: `${fmt.share(lang, shares.overhead)}%`,
  };
  put($('share-weights'), shareText.weights, shares.weights);
  put($('share-kv'), shareText.kv, shares.kv_cache);
  put($('share-overhead'), shareText.overhead, shares.overhead);
  const barLabel = `${t('share.weights')} ${shareText.weights}, ${t('share.kv_cache')} ${shareText.kv}, ` +
    `${t('share.overhead')} ${shareText.overhead}`;
  if (bar.getAttribute('aria-label') !== barLabel) bar.setAttribute('aria-label', barLabel);

  put($('total'), fmt.gb(lang, sim.total_gib), sim.total_gib);
  put($('per-device'), fmt.gb(lang, sim.per_device_gib), sim.per_device_gib);
  put($('weights'), fmt.gb(lang, sim.weights_gib), sim.weights_gib);
  put($('kv-cache-label'), t('out.kv_cache', { kv_dtype: kvLabel }));
  put($('kv-cache'), fmt.gb(lang, sim.kv_cache_gib), sim.kv_cache_gib);
  put($('decode'), fmt.decodeRate(t, lang, sim.fit, sim.decode_tps), sim.decode_tps);
  put($('overhead'), fmt.gb(lang, sim.overhead_gib), sim.overhead_gib);
  const maxContext = fmt.integer(lang, sim.max_context);
  put($('max-context'), `${sim.max_context_capped ? t('out.max_context_at_least', { tokens: maxContext })
    : maxContext} ${t('unit.tokens')}`, sim.max_context);
  put($('max-position'), t('out.max_position', { tokens: fmt.integer(lang, model.max_position_embeddings) }));
  put(
    $('kv-saving'),
    fmt.keepUnits(t(SAVING_KEYS[sim.kv_compression] ?? 'sim.kv_saving', {
      pct: fmt.fixed(lang, sim.kv_saving_pct, 1), gib: fmt.fixed(lang, sim.kv_naive_mha_gib, 2),
    })),
    sim.kv_saving_pct,
  );
}
