// Serving (core/ESTIMATION.md section 8), below the plot (in a widget, below its tables): how long
// a prompt takes before the first token, how fast the prompt is read and how long the prompt and
// its answer take, with the prefill rule's error on published runs; and with several users at
// once, each one's decode rate and the total as a curve and a table, and how many get a rate the
// user sets. The link and
// the widget's attributes keep the lengths and the rate (prompt=, output=, usertps=). It comes
// with vramcalc-full.wasm, which computes it.
import { byId, el, put } from '../dom.js';
import { duration } from '../duration.js';
import * as fmt from '../format.js';
import { runtimeOf, valueChecks } from '../state.js';

const FIELDS = ['prompt', 'output', 'usertps'];

/**
 * The section, made once after the plot (a widget's: before its error line): the prompt's, the
 * answer's and the rate's fields, the figures, the note, the users line and the concurrency table.
 */
function section(root, t) {
  const existing = byId(root, 'serving');
  if (existing) return existing;
  const field = (name) => el('label', {},
    el('span', { 'data-i18n': `serving.${name}` }, t(`serving.${name}`)),
    // Text with a numeric keyboard: the value is checked on change (bindServing), and select() works in every engine.
    el('input', { type: 'text', name, 'data-testid': `serving-${name}`, inputmode: name === 'usertps' ? 'decimal' : 'numeric',
      autocomplete: 'off', spellcheck: 'false' }));
  const head = (key) => el('th', { scope: 'col', class: 'num', 'data-i18n': `serving.col.${key}` }, t(`serving.col.${key}`));
  const figure = (name, sub) => el('div', { class: 'figure' },
    el('dt', { 'data-i18n': `serving.${name}` }, t(`serving.${name}`)),
    el('dd', { id: `serving-${name}`, 'data-testid': `serving-${name}` }),
    ...(sub ? [el('dd', { class: 'sub', id: `serving-${sub}`, 'data-testid': `serving-${sub}` })] : []));
  const card = el('section', { class: 'card serving', id: 'serving', 'aria-labelledby': 'serving-heading' },
    el('h2', { id: 'serving-heading', 'data-i18n': 'serving.heading' }, t('serving.heading')),
    el('form', { class: 'serving-fields', id: 'serving-form' }, field('prompt'), field('output'), field('usertps')),
    el('dl', { class: 'figures' }, figure('ttft'), figure('prefill'), figure('total', 'answer')),
    el('p', { class: 'muted', id: 'serving-note', 'data-testid': 'serving-note' }),
    el('p', { id: 'serving-users', 'data-testid': 'serving-users' }),
    svg('svg', { class: 'serving-curve', id: 'serving-curve', 'data-testid': 'serving-curve', role: 'img',
      viewBox: `0 0 ${CURVE.width} ${CURVE.height}` }),
    el('div', { class: 'table-wrap' }, el('table', { class: 'data', id: 'serving-table', 'data-testid': 'serving-table' },
      el('thead', {}, el('tr', {}, head('sequences'), head('per_user'), head('aggregate'))), el('tbody'))));
  const plot = byId(root, 'plot-figure');
  if (plot) plot.after(card);
  else byId(root, 'error').before(card);
  return card;
}

const NS = 'http://www.w3.org/2000/svg';
// The curve's box in SVG units (it scales with the card's width): log2 sequences across, log10
// tok/s up, both lines on one axis since both are tok/s.
const CURVE = { width: 560, height: 220, left: 56, right: 112, top: 12, bottom: 34 };

function svg(name, attrs = {}, ...children) {
  const element = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) element.setAttribute(key, String(value));
  element.append(...children);
  return element;
}

/** Ticks from the one at or below `low` to the one at or above `high`: 1, 2, 5 × 10^k, or powers of ten over three decades. */
function ticks(low, high) {
  const steps = high / low > 1000 ? [1] : [1, 2, 5];
  const all = [];
  for (let power = Math.floor(Math.log10(low)); power <= Math.ceil(Math.log10(high)); power += 1) {
    for (const step of steps) all.push(step * 10 ** power);
  }
  return all.slice(Math.max(0, all.findLastIndex((v) => v <= low)), all.findIndex((v) => v >= high) + 1);
}

/**
 * The concurrency curve: each user's and all users' decode rate against the sequences at once,
 * the rate each user should get as a dashed line, a point's figures in its title (the table
 * below holds them all).
 */
function curveParts(points, rate, { t, lang }) {
  const values = points.flatMap((p) => [p.per_user_tps, p.aggregate_tps]).concat(rate);
  const yTicks = ticks(Math.min(...values), Math.max(...values));
  const [low, high] = [Math.log10(yTicks[0]), Math.log10(yTicks[yTicks.length - 1])];
  const last = Math.log2(points[points.length - 1].sequences) || 1;
  const x = (n) => CURVE.left + (Math.log2(n) / last) * (CURVE.width - CURVE.left - CURVE.right);
  const y = (v) => CURVE.top + ((high - Math.log10(v)) / (high - low)) * (CURVE.height - CURVE.top - CURVE.bottom);
  const parts = yTicks.flatMap((v) => [
    svg('line', { class: 'grid', x1: CURVE.left, x2: CURVE.width - CURVE.right, y1: y(v), y2: y(v) }),
    svg('text', { class: 'tick', x: CURVE.left - 6, y: y(v) + 4, 'text-anchor': 'end' }, v >= 1 ? fmt.integer(lang, v) : fmt.plain(lang, v))]);
  parts.push(...points.map((p) => svg('text', { class: 'tick', x: x(p.sequences), y: CURVE.height - CURVE.bottom + 16,
    'text-anchor': 'middle' }, fmt.integer(lang, p.sequences))));
  parts.push(svg('text', { class: 'tick', x: (CURVE.left + CURVE.width - CURVE.right) / 2, y: CURVE.height - 2, 'text-anchor': 'middle' },
    t('serving.col.sequences')));
  parts.push(svg('line', { class: 'rate', x1: CURVE.left, x2: CURVE.width - CURVE.right, y1: y(rate), y2: y(rate) }),
    svg('text', { class: 'rate-label', x: CURVE.width - CURVE.right + 6, y: y(rate) + 4 }, `${fmt.plain(lang, rate)} tok/s`));
  for (const [key, field] of [['per_user', 'per_user_tps'], ['aggregate', 'aggregate_tps']]) {
    const at = points.map((p) => [x(p.sequences), y(p[field])]);
    parts.push(svg('polyline', { class: `line ${key}`, points: at.map((xy) => xy.map((v) => v.toFixed(1)).join(',')).join(' ') }));
    parts.push(...points.map((p, i) => svg('circle', { class: `dot ${key}`, cx: at[i][0], cy: at[i][1], r: 3.5, 'data-value': p[field] },
      svg('title', {}, `${fmt.integer(lang, p.sequences)} × ${t(`serving.col.${key}`)}: ${fmt.fixed(lang, p[field], 1)} tok/s`))));
    const [endX, endY] = at[at.length - 1];
    parts.push(svg('text', { class: `end ${key}`, x: endX + 6, y: endY + 4 }, t(`serving.col.${key}`)));
  }
  return parts;
}

function renderCurve(root, points, rate, view) {
  const curve = byId(root, 'serving-curve');
  const key = `${view.lang}|${rate}|${points.map((p) => `${p.sequences}:${p.per_user_tps}:${p.aggregate_tps}`).join(' ')}`;
  if (curve.dataset.key !== key) {
    curve.dataset.key = key;
    curve.replaceChildren(...(points.length > 0 ? curveParts(points, rate, view) : []));
    curve.setAttribute('aria-label', view.t('serving.curve', { rate: fmt.plain(view.lang, rate) }));
  }
  curve.toggleAttribute('hidden', points.length === 0);
}

/**
 * The line under the figures: with a part in system RAM, what copying it costs; the error of the
 * rule the figures follow (the offload rule's then); or why there are no figures.
 */
function noteText(serving, { t, lang, catalog, scenario }) {
  // An engine that does not offload has no plan to point to.
  const plain = serving.gap === 'no_fit' && !runtimeOf(scenario, catalog).offload;
  if (serving.gap !== 'none') return t(`serving.gap.${plain ? 'no_fit_plain' : serving.gap}`);
  const { rule, offload } = serving;
  const [fitted, held] = offload ? [offload.error, offload.holdout] : [rule, rule.holdout];
  const parts = [];
  if (offload) {
    parts.push(t('serving.offload', { layers: fmt.integer(lang, offload.ram_expert_layers), copy: duration(lang, offload.copy_s),
      link: fmt.plain(lang, offload.link_gbps) }));
  }
  if (serving.rule_borrowed) parts.push(t('serving.borrowed', { engine: t(`runtime.${serving.rule_runtime}`) }));
  else if (held.points) {
    parts.push(t('serving.error', { median: fmt.fixed(lang, held.median_error_pct, 1), points: fmt.integer(lang, held.points),
      p90: fmt.fixed(lang, held.p90_error_pct, 1), fit_median: fmt.fixed(lang, fitted.median_error_pct, 1),
      fit_points: fmt.integer(lang, fitted.points) }));
  } else parts.push(t('serving.error_fitted', { fit_median: fmt.fixed(lang, fitted.median_error_pct, 1), fit_points: fmt.integer(lang, fitted.points) }));
  if (serving.beyond_context) parts.push(t('serving.beyond_context'));
  if (serving.short_prompt) parts.push(t('serving.short_prompt'));
  return parts.join(' · ');
}

/** Concurrency: how many users get the rate each, and the curve's points as a curve and a table. */
function renderConcurrency(root, serving, { t, lang }) {
  const points = serving.gap === 'none' ? serving.concurrency : [];
  put(byId(root, 'serving-users'), points.length === 0 ? '' : fmt.keepUnits(t('serving.users', {
    users: fmt.integer(lang, serving.users_at_min_tps), rate: fmt.plain(lang, serving.min_user_tps),
    max: fmt.integer(lang, serving.max_sequences),
  })));
  const body = byId(root, 'serving-table').tBodies[0];
  const rows = points.map((p) => el('tr', { class: p.compute_bound ? 'compute-bound' : '' },
    el('td', { class: 'num' }, fmt.integer(lang, p.sequences)), el('td', { class: 'num' }, `${fmt.fixed(lang, p.per_user_tps, 1)} tok/s`),
    el('td', { class: 'num' }, `${fmt.integer(lang, p.aggregate_tps)} tok/s`)));
  const key = rows.map((row) => row.textContent).join('|');
  if (body.dataset.key !== key) {
    body.dataset.key = key;
    body.replaceChildren(...rows);
  }
  byId(root, 'serving-table').hidden = points.length === 0;
  renderCurve(root, points, serving.min_user_tps, { t, lang });
}

/** Shows the serving section of `response`; an answer without one keeps what is shown. */
export function renderServing(root, response, view) {
  const { serving } = response;
  if (!serving) return;
  const { t, lang, scenario } = view;
  const card = section(root, t);
  const form = byId(root, 'serving-form');
  const fallback = { prompt: serving.prompt_tokens, output: serving.output_tokens, usertps: serving.min_user_tps };
  for (const name of FIELDS) {
    const input = form.elements[name];
    const value = String(scenario?.[name] ?? fallback[name]);
    if (root.activeElement !== input && input.value !== value) input.value = value;
  }
  const shown = serving.gap === 'none';
  put(byId(root, 'serving-ttft'), shown ? duration(lang, serving.ttft_s) : '—');
  put(byId(root, 'serving-prefill'), shown ? `${fmt.integer(lang, serving.prefill_tps)} tok/s` : '—');
  put(byId(root, 'serving-total'), shown ? duration(lang, serving.total_s) : '—');
  put(byId(root, 'serving-answer'), shown ? fmt.keepUnits(t('serving.answer', { decode: fmt.fixed(lang, serving.decode_tps, 1) })) : '');
  put(byId(root, 'serving-note'), fmt.keepUnits(noteText(serving, view)));
  renderConcurrency(root, serving, view);
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
    if (String(page.scenario[target.name] ?? '') === text) return;
    const value = valueChecks(page.catalog)[target.name](text);
    if (value !== null) {
      page.update({ [target.name]: value });
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
  const { defaults, limits } = catalog;
  const input = byId(root, 'serving-form')?.elements[key];
  const fallback = { prompt: defaults.prompt_tokens, output: defaults.output_tokens, usertps: defaults.min_user_tps };
  if (input) input.value = String(scenario[key] ?? fallback[key]);
  if (key === 'usertps') return ['serving.notice_rate', { value: value.slice(0, 40), max: fmt.integer(scenario.lang, limits.max_user_tps) }];
  return ['serving.notice', { value: value.slice(0, 40), max: fmt.integer(scenario.lang, limits.max_context) }];
}

export const isServingField = (key) => FIELDS.includes(key);
