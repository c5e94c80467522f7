// The verified architecture card, rebuilt when the model or the language changes.
import { byId } from '../dom.js';
import * as fmt from '../format.js';
import { modelSources } from '../site-data.js';

function entry(label, value, testid) {
  const wrap = document.createElement('div');
  const dt = document.createElement('dt');
  dt.textContent = label;
  const dd = document.createElement('dd');
  if (value instanceof Node) dd.append(value);
  else dd.textContent = value;
  if (testid) dd.dataset.testid = testid;
  wrap.append(dt, dd);
  return wrap;
}

/** The sources as a list; only https URLs become links. */
function sourceList(sources) {
  const list = document.createElement('ul');
  list.className = 'sources';
  for (const source of sources) {
    const item = document.createElement('li');
    item.append(`${source.what}: `);
    if (/^https:\/\//.test(source.url)) {
      const link = document.createElement('a');
      link.href = source.url;
      link.rel = 'noopener noreferrer';
      link.textContent = source.url;
      item.append(link);
    } else {
      item.append(source.url);
    }
    list.append(item);
  }
  return list;
}

/**
 * How the layers divide when they are not all alike (hybrids, sliding windows, shared KV):
 * "48 layers: 12 full attention + 36 linear attention / SSM; 75.38 MiB recurrent state per
 * sequence at 32 bits". Null for a model whose layers are all one group.
 */
function layerPattern(model, { t, lang }) {
  const groups = model.layer_groups ?? [];
  if (groups.length < 2) return null;
  const parts = groups.map((g) => t(`arch.kind.${g.kind}`, {
    n: fmt.integer(lang, g.layers), window: fmt.integer(lang, g.window_tokens), ratio: fmt.integer(lang, g.compress_ratio ?? 0),
  }));
  const text = t('arch.pattern.text', { layers: fmt.integer(lang, model.num_hidden_layers), parts: parts.join(' + ') });
  const state = groups.reduce((sum, g) => sum + g.layers * g.state_elements, 0) * 4 / 2 ** 20;
  return state > 0 ? `${text}; ${t('arch.pattern.state', { mib: fmt.fixed(lang, state, 2) })}` : text;
}

const observers = new WeakMap();  // per card: the one waiting for it to come into view

/** The architecture card of the answer's model: its `model` section, and where to get it (`card`). */
export function renderCard(root, { model, card: where }, view) {
  const { t, lang } = view;
  const card = byId(root, 'arch');
  if (!card) return;
  const topology = t(`topology.${model.topology}`);
  const unaligned = ['unaligned_params', 'unaligned_expert_params', 'unaligned_hidden_params', 'unaligned_hidden_expert_params']
    .reduce((sum, key) => sum + (model[key] ?? 0), 0);
  const rows = [
    entry(t('arch.checkpoint'), where.checkpoint, 'arch-checkpoint'),
    entry(t('arch.ollama_tag'), where.ollama_tag || t('arch.ollama_none'), 'arch-ollama'),
    entry(t('arch.license_release'), `${model.license} · ${where.release}`, 'arch-license'),
    entry(t('arch.topology'), topology.charAt(0).toUpperCase() + topology.slice(1), 'arch-topology'),
    entry(t('arch.attention'), t(`attention.${model.attention}`), 'arch-attention'),
    entry(t('arch.params_total'), fmt.params(lang, model.params_total), 'arch-params-total'),
    entry(t('arch.params_active'), fmt.params(lang, model.params_active), 'arch-params-active'),
    ...(model.vision_params > 0 ? [entry(t('arch.params_vision'), fmt.params(lang, model.vision_params), 'arch-params-vision')] : []),
    // Matrices whose rows GGUF's 256-weight blocks do not divide: down projections of such a
    // width, and with such a hidden size every matrix reading it (core/ESTIMATION.md 5.2).
    ...(unaligned > 0 ? [entry(t('arch.params_unaligned'), fmt.params(lang, unaligned), 'arch-params-unaligned')] : []),
    entry(t('arch.layers_hidden'), `${model.num_hidden_layers} / ${model.hidden_size}`, 'arch-layers'),
    entry(t('arch.heads'),
      `${model.num_attention_heads}Q / ${model.num_key_value_heads}KV (d=${model.head_dim})`, 'arch-heads'),
    entry(t('arch.vocab_position'),
      `${fmt.integer(lang, model.vocab_size)} / ${fmt.integer(lang, model.max_position_embeddings)}`, 'arch-vocab'),
  ];
  const pattern = layerPattern(model, view);
  if (pattern) rows.push(entry(t('arch.pattern'), pattern, 'arch-pattern'));
  if (model.params_formula) {
    const formula = document.createElement('span');
    formula.className = 'formula';
    formula.textContent = model.params_formula;
    rows.push(entry(t('arch.params_formula'), formula, 'arch-params-formula'));
  }
  const sources = entry(t('arch.sources'), sourceList(model.sources ?? []), 'arch-sources');
  rows.push(sources);
  card.replaceChildren(...rows);
  card.dataset.model = model.id;
  // A catalog model's sources are not in the module: they load once the card comes near the
  // view (site-data.js), after the first numbers.
  observers.get(card)?.disconnect();
  if (model.sources?.length) return;
  const observer = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    observer.disconnect();
    modelSources().then((all) => {
      if (card.dataset.model === model.id && all[model.id]) sources.lastChild.replaceChildren(sourceList(all[model.id]));
    });
  }, { rootMargin: '200px 0px' });
  observer.observe(sources);
  observers.set(card, observer);
}
