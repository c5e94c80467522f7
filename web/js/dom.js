// Small DOM helpers that write only what changed, and only as text (never HTML).

/** Sets an element's text (and optionally data-value) when it differs. */
export function put(element, text, value) {
  if (element.textContent !== text) element.textContent = text;
  if (value !== undefined) {
    const v = String(value);
    if (element.dataset.value !== v) element.dataset.value = v;
  }
}

/** Replaces a <select>'s options with [value, label] pairs, keeping `selected`. */
export function fillSelect(select, options, selected) {
  const same =
    select.options.length === options.length &&
    options.every(([value, label], i) => select.options[i].value === value && select.options[i].text === label);
  if (!same) {
    select.replaceChildren(
      ...options.map(([value, label]) => {
        const option = document.createElement('option');
        option.value = value;
        option.textContent = label;
        return option;
      }),
    );
  }
  if (select.value !== selected) select.value = selected;
}
