// The sections below the simulator that a context change alters. While the slider moves, those
// out of view are neither asked of the core nor drawn: they catch up in the frame at rest (the
// controller's, once the slider has not moved for a while) or as they scroll into view.
// Computing them was most of a slider move's core call (170 µs against 30 for the simulator
// alone), laying them out and painting them most of its frame. While they are behind, the
// browser also skips laying out and painting the sections out of view (content-visibility,
// css/app.css `.sliding`); at rest the page is whole again.

/**
 * @param {Element} page the element that carries the `sliding` class
 * @param {Array<[Element, string, (response: object, view: object) => void]>} sections each
 *   section's element, the name of its part of the core's answer, and how it draws
 * @param {() => void} redraw asks for a frame
 * @returns {{names: Set<string>, skipped: (moving: boolean) => Set<string>,
 *            draw: (response: object, view: object, skip: Set<string>) => void}}
 *   names: the sections' parts of the answer; skipped(): the parts a frame leaves out while the
 *   slider moves (those out of view), none at rest; draw(): draws all but `skip`.
 */
export function lazySections(page, sections, redraw) {
  const inView = new Set();
  let behind = false;  // a section has not shown the latest context

  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) inView.add(entry.target);
      else inView.delete(entry.target);
    }
    if (behind && entries.some((entry) => entry.isIntersecting)) redraw();  // it catches up
  }, { rootMargin: '200px 0px' });
  for (const [section] of sections) observer.observe(section);

  return {
    names: new Set(sections.map(([, name]) => name)),
    skipped: (moving) => new Set(moving
      ? sections.filter(([section]) => !inView.has(section)).map(([, name]) => name) : []),
    draw(response, view, skip) {
      for (const [, name, drawSection] of sections) {
        if (!skip.has(name)) drawSection(response, view);
      }
      behind = skip.size > 0;
      page.classList.toggle('sliding', behind);
    },
  };
}
