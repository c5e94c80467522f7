// How far off the decode estimate is: the engine's error on its published runs beside the
// decode figure, and its whole error table (generated with the fit, estimation model section 6)
// one click away. The reference profile has neither: its formula is the reference page's.
import { byId, put } from '../dom.js';
import * as fmt from '../format.js';

/** A kind of device as the table names it: "CUDA · datacenter GPUs". */
const devicesOfKind = (t, platform, unified, kind) => `${t(`platform.${platform}`)} · ${t(unified ? 'class.unified' : `class.${kind}`)}`;

function ruleLabel(t, lang, rule) {
  const devices = devicesOfKind(t, rule.platform, rule.unified_memory === 'yes', rule.class);
  const tiered = rule.from_bandwidth_gbps > 0
    ? t('accuracy.tier', { devices, bandwidth: fmt.integer(lang, rule.from_bandwidth_gbps) }) : devices;
  if (rule.moe === 'any') return tiered;
  return t(rule.moe === 'yes' ? 'accuracy.moe' : 'accuracy.dense', { devices: tiered });
}

const RULE_KEYS = ['platform', 'class', 'unified_memory', 'from_bandwidth_gbps', 'moe'];
const sameRule = (a, b) => Boolean(a && b) && RULE_KEYS.every((key) => a[key] === b[key]);

function row(t, lang, rule) {
  const tr = document.createElement('tr');
  const cells = [ruleLabel(t, lang, rule), fmt.integer(lang, rule.points), `${fmt.fixed(lang, rule.median_error_pct, 1)} %`,
    `${fmt.fixed(lang, rule.p90_error_pct, 1)} %`, `${fmt.fixed(lang, rule.worst_error_pct, 1)} %`];
  cells.forEach((text, i) => {
    const cell = document.createElement(i === 0 ? 'th' : 'td');
    if (i === 0) cell.scope = 'row'; else cell.className = 'num';
    cell.textContent = text;
    tr.append(cell);
  });
  return tr;
}

/** The decode figure's error line: the rule's median, or "not measured" under an engine profile. */
function renderLine(root, sim, { t, lang }) {
  const line = byId(root, 'decode-error');
  if (!line) return;
  const rule = sim.decode_rule;
  const shown = Boolean(rule) || sim.runtime !== 'reference';
  if (line.hidden !== !shown) line.hidden = !shown;
  if (!shown) return;
  put(line, rule ? t('decode.error', { median: fmt.fixed(lang, rule.median_error_pct, 1), points: fmt.integer(lang, rule.points) })
    : t('decode.unmeasured', { devices: devicesOfKind(t, sim.device_platform, sim.unified_memory, sim.device_class) }));
}

export function renderAccuracy(root, response, view) {
  const sim = response.simulator;
  renderLine(root, sim, view);
  const details = byId(root, 'accuracy');
  if (!details) return;
  const rules = view.catalog.runtimes.find((r) => r.id === sim.runtime)?.decode ?? [];
  if (details.hidden !== (rules.length === 0)) details.hidden = rules.length === 0;
  const body = byId(root, 'accuracy-table').tBodies[0];
  const key = `${sim.runtime}|${view.lang}`;
  if (details.dataset.key !== key) {  // rebuilt when the engine or the language changes, not per frame
    details.dataset.key = key;
    body.replaceChildren(...rules.map((rule) => row(view.t, view.lang, rule)));
  }
  rules.forEach((rule, i) => body.rows[i].classList.toggle('current', sameRule(rule, sim.decode_rule)));
}
