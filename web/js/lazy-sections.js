// The sections below the simulator that a context change alters. While only the context moves
// (the slider), those out of view catch up once it rests or as they scroll into view, not on
// every frame: laying out and painting them was most of a slider move's cost. Any other change
// redraws them at once. While the slider moves, the browser also skips laying out and painting
// the sections out of view (content-visibility, css/app.css `.sliding`); at rest the page is
// whole again.
const REST_MS = 120;

/**
 * @param {Element} page the element that carries the `sliding` class
 * @param {Array<[Element, (response: object, view: object) => void]>} sections
 * @returns {(response: object, view: object, all: boolean) => void} draws a frame
 */
export function lazySections(page, sections) {
  const inView = new Set();
  let behind = null;  // the frame the sections out of view have not shown yet
  let restTimer = 0;

  function catchUp() {
    clearTimeout(restTimer);
    page.classList.remove('sliding');
    if (!behind) return;
    const { response, view } = behind;
    behind = null;
    for (const [, draw] of sections) draw(response, view);
  }

  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) inView.add(entry.target);
      else inView.delete(entry.target);
    }
    if (entries.some((entry) => entry.isIntersecting)) catchUp();
  }, { rootMargin: '200px 0px' });
  for (const [section] of sections) observer.observe(section);

  return function draw(response, view, all) {
    behind = null;
    for (const [section, drawSection] of sections) {
      if (all || inView.has(section)) drawSection(response, view);
      else behind = { response, view };
    }
    clearTimeout(restTimer);
    page.classList.toggle('sliding', behind !== null);
    if (behind) restTimer = setTimeout(catchUp, REST_MS);
  };
}
