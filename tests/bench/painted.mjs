// When a page's first numbers were painted, as bench.mjs and engines.mjs read it from the page
// and from the control page (tests/bench/control/), the same way for both:
// - Element Timing where the browser has it (Chromium): the renderTime of the entry for the
//   element holding the total (`id="total"`, which carries an `elementtiming` attribute), the
//   moment the frame that paints it was presented;
// - else (Firefox, WebKit) the page's own `vramcalc:first-numbers-painted` mark, set in the task
//   after the first animation frame that follows the write. Not the frame's timestamp
//   (requestAnimationFrame's argument): that is the frame's start, before its style, layout and
//   paint, so it would not count them (and in traces it can lie before the write itself); the
//   task after the frame runs once the main thread has painted it.
// `vramcalc:first-numbers`, which both pages set in script right after the write, is what the
// tests wait for and what the benchmark measured until 2026-12-04; the page's numbers were then
// painted 90-470 ms after it (the parser's last task ran on after it, with a forced style and
// layout, before any frame).

/**
 * In the page (it uses nothing from outside itself): a promise of the painted moment in ms after
 * the navigation's start, or null when there is none within `waitMs`.
 */
export function paintedAt(waitMs = 30_000) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), waitMs);
    const done = (observer, time) => {
      observer.disconnect();
      clearTimeout(timer);
      resolve(time);
    };
    if (PerformanceObserver.supportedEntryTypes.includes('element')) {
      new PerformanceObserver((list, observer) => {
        const entry = list.getEntries().find((candidate) => candidate.id === 'total');
        if (entry) done(observer, entry.renderTime || entry.loadTime);
      }).observe({ type: 'element', buffered: true });
    } else {
      new PerformanceObserver((list, observer) => {
        const entry = list.getEntriesByName('vramcalc:first-numbers-painted')[0];
        if (entry) done(observer, entry.startTime);
      }).observe({ type: 'mark', buffered: true });
    }
  });
}
