// The page's answers while only the context moves (web/js/context-answers.js): a context asked
// for once is not asked of the core again until anything else changes, and the slider's stops
// are asked for when the browser says it is idle. Runs under Node, with a core that counts its
// calls and an idle queue the test runs by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contextAnswers } from '../../web/js/context-answers.js';

function countingCore() {
  const asked = [];
  const evaluate = (request, config) => {
    asked.push({ ...request, config });
    // An error for a context past the core's limit (2^27 tokens), else an answer naming what
    // it was asked.
    if (request.context > 134217728) return { ok: false, error: { field: 'context' } };
    return { ok: true, simulator: { context: request.context }, sections: request.sections };
  };
  return { asked, evaluate };
}

/** requestIdleCallback as the browser's, run by hand: each run has `ms` of idle time. */
function idleQueue() {
  const queue = [];  // [id, callback]
  let last = 0;
  globalThis.requestIdleCallback = (run) => {
    queue.push([++last, run]);
    return last;
  };
  globalThis.cancelIdleCallback = (id) => {
    const at = queue.findIndex(([queued]) => queued === id);
    if (at >= 0) queue.splice(at, 1);
  };
  return {
    run: (ms) => queue.shift()[1]({ timeRemaining: () => ms }),
    get size() { return queue.length; },
  };
}

const STOPS = [512, 1024, 2048, 4096, 8192, 16384, 32768];
const slider = (context) => ({ model: 'glm-4-32b-0414', context, sections: ['simulator'] });

test('a context asked for once is answered from what was kept, until the key changes', () => {
  const core = countingCore();
  const answers = contextAnswers(core.evaluate);
  // A drag from 32K down to 8K and back up: three stops, each asked of the core once.
  for (const context of [32768, 16384, 8192, 16384, 32768]) {
    assert.equal(answers.answer('a', slider(context)).simulator.context, context);
  }
  assert.deepEqual(core.asked.map((r) => r.context), [32768, 16384, 8192]);
  // Other sections (one below scrolled into view) are another answer.
  const more = { ...slider(8192), sections: ['simulator', 'commands'] };
  assert.deepEqual(answers.answer('a', more).sections, ['simulator', 'commands']);
  assert.equal(core.asked.length, 4);
  // Another model or setting (another key): nothing kept is used.
  answers.answer('b', slider(8192));
  assert.deepEqual(core.asked.map((r) => r.context), [32768, 16384, 8192, 8192, 8192]);
  answers.answer('b', slider(8192));
  assert.equal(core.asked.length, 5);
});

test('an error is not kept: the next frame asks again', () => {
  const core = countingCore();
  const answers = contextAnswers(core.evaluate);
  const past = slider(2 ** 28);
  assert.equal(answers.answer('a', past).ok, false);
  assert.equal(answers.answer('a', past).ok, false);
  assert.equal(core.asked.length, 2);
});

test('the stops are asked for when the browser is idle, as much as its idle time allows', () => {
  const idle = idleQueue();
  const core = countingCore();
  const answers = contextAnswers(core.evaluate);
  answers.prefetch('a', slider(32768), 'config text', STOPS);
  assert.equal(core.asked.length, 0, 'nothing before the browser is idle');
  // No idle time left: one answer per idle callback (the first is always asked).
  idle.run(0);
  assert.deepEqual(core.asked.map((r) => r.context), [512]);
  assert.equal(idle.size, 1, 'the rest waits for the next idle time');
  // Plenty of idle time: the rest in one go, with the config text each was given.
  idle.run(50);
  assert.deepEqual(core.asked.map((r) => r.context), STOPS);
  assert.ok(core.asked.every((r) => r.config === 'config text'));
  assert.equal(idle.size, 0);
  // A drag over the stops now asks the core nothing.
  for (const context of [...STOPS].reverse()) answers.answer('a', slider(context), 'config text');
  assert.equal(core.asked.length, STOPS.length);
});

test('stops asked for under a key that has changed since are not asked at all', () => {
  const idle = idleQueue();
  const core = countingCore();
  const answers = contextAnswers(core.evaluate);
  answers.prefetch('a', slider(32768), undefined, STOPS);
  answers.answer('b', slider(4096));  // another model chosen before the page was idle
  idle.run(50);
  assert.deepEqual(core.asked.map((r) => r.context), [4096]);
  assert.equal(idle.size, 0);
});

test('a number field typed through many contexts keeps at most 64 answers, each still right', () => {
  const core = countingCore();
  const answers = contextAnswers(core.evaluate);
  for (let context = 1000; context < 1100; context += 1) {
    assert.equal(answers.answer('a', slider(context)).simulator.context, context);
  }
  // The first 64 were let go when the 65th came: 1000 is asked again, 1099 is not.
  answers.answer('a', slider(1099));
  assert.equal(core.asked.length, 100);
  answers.answer('a', slider(1000));
  assert.equal(core.asked.length, 101);
});

test('the stops of another model replace those not asked for yet', () => {
  const idle = idleQueue();
  const core = countingCore();
  const answers = contextAnswers(core.evaluate);
  answers.prefetch('a', slider(32768), undefined, STOPS);
  idle.run(0);
  answers.prefetch('b', { ...slider(32768), model: 'qwen3-8b' }, undefined, [512, 1024]);
  assert.equal(idle.size, 1, "one idle callback: the new model's");
  idle.run(50);
  assert.deepEqual(core.asked.map((r) => `${r.model} ${r.context}`),
    ['glm-4-32b-0414 512', 'qwen3-8b 512', 'qwen3-8b 1024']);
});
