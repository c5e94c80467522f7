// The sections below the simulator that a context change alters. While only the context moves
// (the slider), those out of view are neither asked of the core nor drawn: they catch up once
// it rests or as they scroll into view. Computing them was most of a slider move's core call
// (170 µs against 30 for the simulator alone), laying them out and painting them most of its
// frame. Any other change computes and draws them at once. While the slider moves, the browser
// also skips laying out and painting the sections out of view (content-visibility,
// css/app.css `.sliding`); at rest the page is whole again.
const REST_MS = 120;

/**
 * @param {Element} page the element that carries the `sliding` class
 * @param {Array<[Element, string, (response: object, view: object) => void]>} sections each
 *   section's element, the name of its part of the core's answer, and how it draws
 * @param {() => void} redraw asks for a frame (one that computes and draws every section)
 * @returns {{names: Set<string>, skipped: (all: boolean) => Set<string>,
 *            draw: (response: object, view: object, all: boolean) => void}}
 *   names: the sections' parts of the answer; skipped(): the parts this frame leaves out (none
 *   when `all`, for any change but the context); draw(): draws the others, and catches up later
 *   on the rest.
 */
export function lazySections(page, sections, redraw) {
  const inView = new Set();
  let behind = false;  // a section has not shown the latest context
  let catchingUp = false;
  let restTimer = 0;

  function catchUp() {
    clearTimeout(restTimer);
    page.classList.remove('sliding');
    if (!behind) return;
    catchingUp = true;
    redraw();
  }

  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) inView.add(entry.target);
      else inView.delete(entry.target);
    }
    if (entries.some((entry) => entry.isIntersecting)) catchUp();
  }, { rootMargin: '200px 0px' });
  for (const [section] of sections) observer.observe(section);

  const skipped = (all) => new Set(all || catchingUp ? []
    : sections.filter(([section]) => !inView.has(section)).map(([, name]) => name));

  return {
    names: new Set(sections.map(([, name]) => name)),
    skipped,
    draw(response, view, all) {
      const left = skipped(all);
      catchingUp = false;
      for (const [, name, drawSection] of sections) {
        if (!left.has(name)) drawSection(response, view);
      }
      behind = left.size > 0;
      clearTimeout(restTimer);
      page.classList.toggle('sliding', behind);
      if (behind) restTimer = setTimeout(catchUp, REST_MS);
    },
  };
}
