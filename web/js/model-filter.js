// The model picker filters as one types (90 models in family groups): options whose name, id
// or family lack any of the typed words are hidden, and so are the groups left empty; Enter
// picks the first match. The select keeps its value, so the page never changes model by itself.

const wordsOf = (input) => input.value.toLowerCase().split(/\s+/).filter(Boolean);

function matches(option, words) {
  const text = `${option.textContent} ${option.value} ${option.parentElement?.label ?? ''}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

function apply(input, select) {
  const words = wordsOf(input);
  let shown = 0;
  for (const option of select.options) {
    const hide = words.length > 0 && !matches(option, words) && option.value !== select.value;
    if (option.hidden !== hide) option.hidden = hide;
    if (!hide) shown += 1;
  }
  for (const group of select.querySelectorAll('optgroup')) {
    const hide = [...group.children].every((option) => option.hidden);
    if (group.hidden !== hide) group.hidden = hide;
  }
  input.setAttribute('aria-invalid', String(shown === 0));
}

/**
 * @param {HTMLInputElement} input the filter field
 * @param {HTMLSelectElement} select the model picker, whose options the page rebuilds
 */
export function bindModelFilter(input, select) {
  input.addEventListener('input', () => apply(input, select));
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    const words = wordsOf(input);
    const first = [...select.options].find((option) => matches(option, words));
    if (!first || first.value === select.value) return;
    select.value = first.value;
    select.dispatchEvent(new Event('input', { bubbles: true }));
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
  // New options (another language, a pasted config.json) are filtered as well, and what was typed
  // before this code came (it loads after the first numbers, with later.js).
  new MutationObserver(() => apply(input, select)).observe(select, { childList: true });
  if (input.value) apply(input, select);
}
