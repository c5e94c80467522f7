// The core's answers while only the context moves (the slider), kept until anything else
// changes: a drag back over a stop it has passed asks the core nothing, and the stops it has not
// reached are asked for while the page is idle. A slider frame then only draws (the core call,
// with its request's encoding and its answer's JSON, was a third of a frame's script).
const LIMIT = 64;  // answers kept for one scenario (the number field can ask for any context)

/**
 * @param {(request: object, config?: string) => object} evaluate the core's evaluate()
 * @returns {{answer: (key: string, request: object, config?: string) => object,
 *            prefetch: (key: string, request: object, config: string | undefined, contexts: number[]) => void}}
 *   answer(): the core's answer to `request` (with its context and sections), kept under `key`
 *   (what the request asks but its context: another key lets every kept answer go);
 *   prefetch(): asks for `request` at each of `contexts` (the slider's stops) when the page is
 *   idle, unless the key has changed by then.
 */
export function contextAnswers(evaluate) {
  let kept = { key: null, answers: new Map() };
  let idleTask = 0;

  const keep = (key) => {
    if (kept.key !== key || kept.answers.size >= LIMIT) kept = { key, answers: new Map() };
    return kept.answers;
  };

  function answer(key, request, config) {
    const answers = keep(key);
    const slot = `${request.sections}|${request.context}`;
    let found = answers.get(slot);
    if (found === undefined) {
      found = evaluate(request, config);
      if (found.ok) answers.set(slot, found);
    }
    return found;
  }

  const idle = (run) => (globalThis.requestIdleCallback ? requestIdleCallback(run) : setTimeout(() => run(null), 50));
  const cancelIdle = (task) => (globalThis.cancelIdleCallback ? cancelIdleCallback(task) : clearTimeout(task));

  function prefetch(key, request, config, contexts) {
    cancelIdle(idleTask);
    keep(key);
    const left = [...contexts];
    const step = (deadline) => {
      // One answer at a time while there is idle time (one per task without requestIdleCallback).
      do {
        if (kept.key !== key) return;
        answer(key, { ...request, context: left.shift() }, config);
      } while (left.length > 0 && deadline !== null && deadline.timeRemaining() > 2);
      if (left.length > 0) idleTask = idle(step);
    };
    if (left.length > 0) idleTask = idle(step);
  }

  return { answer, prefetch };
}
