// Serving (core/ESTIMATION.md section 8), below the plot: how long a prompt takes before the
// first token, how fast the prompt is read and how long the prompt and its answer take, for a
// prompt and answer length the user sets (the link keeps them: prompt=, output=), with the
// prefill rule's error on published runs. It comes with vramcalc-full.wasm, which computes it.
import { byId, el, put } from '../dom.js';
import * as fmt from '../format.js';

const FIELDS = ['prompt', 'output'];

/** The section, made once after the plot: two token fields and the figures. */
function section(root, t) {
  const existing = byId(root, 'serving');
  if (existing) return existing;
  const field = (name) => el('label', {},
    el('span', { 'data-i18n': `serving.${name}` }, t(`serving.${name}`)),
    // Text with a numeric keyboard: the value is checked on change (bindServing), and select() works in every engine.
    el('input', { type: 'text', name, 'data-testid': `serving-${name}`, inputmode: 'numeric', autocomplete: 'off', spellcheck: 'false' }));
  const figure = (name, sub) => el('div', { class: 'figure' },
    el('dt', { 'data-i18n': `serving.${name}` }, t(`serving.${name}`)),
    el('dd', { id: `serving-${name}`, 'data-testid': `serving-${name}` }),
    ...(sub ? [el('dd', { class: 'sub', id: `serving-${sub}`, 'data-testid': `serving-${sub}` })] : []));
  const card = el('section', { class: 'card serving', id: 'serving', 'aria-labelledby': 'serving-heading' },
    el('h2', { id: 'serving-heading', 'data-i18n': 'serving.heading' }, t('serving.heading')),
    el('form', { class: 'serving-fields', id: 'serving-form' }, field('prompt'), field('output')),
    el('dl', { class: 'figures' }, figure('ttft'), figure('prefill'), figure('total', 'answer')),
    el('p', { class: 'muted', id: 'serving-note', 'data-testid': 'serving-note' }));
  byId(root, 'plot-figure').after(card);
  return card;
}

/** The line under the figures: the rule's error, or why there are no figures. */
function noteText(serving, { t, lang }) {
  if (serving.gap !== 'none') return t(`serving.gap.${serving.gap}`);
  const { rule } = serving;
  const parts = [];
  if (serving.rule_borrowed) parts.push(t('serving.borrowed', { engine: t(`runtime.${serving.rule_runtime}`) }));
  else if (rule.holdout.points) {
    parts.push(t('serving.error', { median: fmt.fixed(lang, rule.holdout.median_error_pct, 1), points: fmt.integer(lang, rule.holdout.points),
      fit_median: fmt.fixed(lang, rule.median_error_pct, 1), fit_points: fmt.integer(lang, rule.points) }));
  } else parts.push(t('serving.error_fitted', { fit_median: fmt.fixed(lang, rule.median_error_pct, 1), fit_points: fmt.integer(lang, rule.points) }));
  if (serving.beyond_context) parts.push(t('serving.beyond_context'));
  return parts.join(' · ');
}

/** Seconds as "0.84 s" or "2 min 5 s". */
function duration(lang, seconds) {
  if (seconds < 10) return `${fmt.fixed(lang, seconds, 2)} s`;
  if (seconds < 120) return `${fmt.fixed(lang, seconds, 1)} s`;
  return `${fmt.integer(lang, Math.floor(seconds / 60))} min ${fmt.integer(lang, Math.round(seconds % 60))} s`;
}

/** Shows the serving section of `response`; an answer without one keeps what is shown. */
export function renderServing(root, response, view) {
  const { serving } = response;
  if (!serving) return;
  const { t, lang, scenario } = view;
  const card = section(root, t);
  const form = byId(root, 'serving-form');
  for (const name of FIELDS) {
    const input = form.elements[name];
    const value = String(scenario?.[name] ?? serving[`${name}_tokens`]);
    if (root.activeElement !== input && input.value !== value) input.value = value;
  }
  const shown = serving.gap === 'none';
  put(byId(root, 'serving-ttft'), shown ? duration(lang, serving.ttft_s) : '—');
  put(byId(root, 'serving-prefill'), shown ? `${fmt.integer(lang, serving.prefill_tps)} tok/s` : '—');
  put(byId(root, 'serving-total'), shown ? duration(lang, serving.total_s) : '—');
  put(byId(root, 'serving-answer'), shown ? fmt.keepUnits(t('serving.answer', { decode: fmt.fixed(lang, serving.decode_tps, 1) })) : '');
  put(byId(root, 'serving-note'), fmt.keepUnits(noteText(serving, view)));
  if (card.hidden) card.hidden = false;
}

/**
 * The fields' listener: a whole number of tokens from 1 to the largest context sets the
 * scenario's prompt or answer, once the field is left or Enter is pressed; anything else is
 * named and dropped.
 * @param {{update: (patch: object) => void, commit: () => void, reject: (key: string, value: string) => void,
 *          catalog: object}} page
 */
export function bindServing(root, page) {
  const apply = (target) => {
    if (target.form?.id !== 'serving-form' || !FIELDS.includes(target.name)) return;
    const text = target.value.trim();
    const tokens = Number(text);
    if (String(page.scenario[target.name] ?? '') === text) return;
    if (/^\d{1,12}$/.test(text) && tokens >= 1 && tokens <= page.catalog.limits.max_context) {
      page.update({ [target.name]: tokens });
      page.commit();
    } else page.reject(target.name, text);
  };
  root.addEventListener('change', (event) => apply(event.target));
  root.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') apply(event.target);
  });
}

/** A field's value it cannot take: the field shows the scenario's again, and the notice says why. */
export function rejectServing(root, key, value, { scenario, catalog }) {
  const input = byId(root, 'serving-form')?.elements[key];
  if (input) input.value = String(scenario[key] ?? catalog.defaults[`${key}_tokens`]);
  return ['serving.notice', { value: value.slice(0, 40), max: fmt.integer(scenario.lang, catalog.limits.max_context) }];
}

export const isServingField = (key) => FIELDS.includes(key);
