// What the CLI answers, for the pages to match: `vramcalc evaluate` (a request's JSON answer)
// and `vramcalc sweep --device ID --context N`, read back from its text table: the models that
// fit (name, best format, memory, decode, first token, max context as shown), those that run with
// offload (name, format, split, in RAM, decode) and the models listed apart because their own
// maximum context is below N. The fits view must list the same.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './harness.mjs';

export const cliPath = path.resolve(repoRoot, process.env.VRAMCALC_CLI ?? 'build/core/vramcalc');

/**
 * Under `runtime`: by default llama.cpp's, the engine the fits view opens under when its link
 * names none (web/js/state.js FITS_RUNTIME); `flags` more of the command's (such as --ram 128).
 * @returns {{fitting: string[][], offload: string[][], beyond: string[]}}
 */
export function cliFits(device, context, runtime = 'llamacpp', flags = []) {
  const text = execFileSync(cliPath, ['sweep', '--device', device, '--context', String(context), '--runtime', runtime, ...flags],
    { encoding: 'utf8' });
  const [head, beyond = ''] = text.split('Context longer than the model supports');
  const [main, offload = ''] = head.split('\nRuns with offload');
  const rows = (part) => part.split('\n').filter((line) => /\S {2,}\S/.test(line)).slice(1)
    .map((line) => line.trim().split(/ {2,}/));
  return {
    fitting: rows(main).filter((cells) => cells.length === 6), offload: rows(offload),
    beyond: rows(beyond).map((cells) => cells[0]),
  };
}

/** The catalog as the CLI prints it (model names by id). */
export const cliCatalog = () => JSON.parse(execFileSync(cliPath, ['catalog'], { encoding: 'utf8', maxBuffer: 1 << 26 }));

/** The CLI's answer to a request (`vramcalc evaluate '<json>'`). */
export const cliEvaluate = (request) => JSON.parse(execFileSync(cliPath, ['evaluate', JSON.stringify(request)], { encoding: 'utf8' }));
