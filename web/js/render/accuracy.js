// How far off the decode estimate is: the engine's error on its published runs beside the
// decode figure (here, with the first numbers), and its whole error table (generated with the
// fit, estimation model section 6) one click away (accuracy-table.js, after them). The
// reference profile has neither: its formula is the reference page's.
import { byId, put } from '../dom.js';
import * as fmt from '../format.js';
import { offloadPlan } from './simulator.js';

/**
 * The decode figure's error line: the rule's median on the runs its fit never saw (the held-out
 * sources') beside the one on the runs it was fitted to, or only the latter where no run was
 * held out; under an engine profile without a rule, the reference constants' error on the runs
 * published there (decode_check), else "not measured"; with a part in host RAM,
 * render/offload.js writes it (the offload rule's).
 */
export function renderDecodeError(root, response, { t, lang }) {
  const line = byId(root, 'decode-error');
  if (!line || offloadPlan(response)) return;
  const sim = response.simulator;
  const rule = sim.decode_rule;
  const shown = Boolean(rule) || sim.runtime !== 'reference';
  if (line.hidden !== !shown) line.hidden = !shown;
  if (!shown) return;
  if (!rule) {
    const check = sim.decode_check;
    put(line, t(check ? 'decode.checked' : 'decode.unmeasured', {
      devices: fmt.devicesOfKind(t, sim.device_platform, sim.unified_memory, sim.device_class),
      median: check && fmt.fixed(lang, check.median_error_pct, 0), points: check?.points,
    }));
    return;
  }
  const { holdout } = rule;
  put(line, t(holdout.points ? 'decode.error' : 'decode.error_fitted', {
    median: fmt.fixed(lang, holdout.median_error_pct, 1), points: fmt.integer(lang, holdout.points),
    fit_median: fmt.fixed(lang, rule.median_error_pct, 1), fit_points: fmt.integer(lang, rule.points),
  }));
}
