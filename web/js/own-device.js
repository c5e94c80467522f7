// A device of one's own: the form behind the device list's "Your own device", built when it
// first opens (its code and its texts, later strings, come then), and the link text it makes.
import { byId, el } from './dom.js';

const PLATFORMS = [['cuda', 'CUDA'], ['rocm', 'ROCm'], ['vulkan', 'Vulkan'], ['metal', 'Metal']];

/** The form inside `#own-device`, built once; its texts wait for applyTexts (data-i18n). */
export function ownDeviceForm(root) {
  const existing = byId(root, 'own-device-form');
  if (existing) return existing;
  const label = (name, control, attributes = {}) => el('label', attributes, el('span', { 'data-i18n': `own.${name}` }), control);
  const number = (name, min, max, required) => label(name, el('input', { name, 'data-testid': `own-${name}`, type: 'number', min, max,
    step: 'any', required }));
  const form = el('form', { id: 'own-device-form', class: 'selectors', autocomplete: 'off' },
    label('name', el('input', { name: 'name', 'data-testid': 'own-name', maxlength: 64, required: true })),
    number('memory', 1, 16384, true), number('bandwidth', 1, 100000, true),
    // The peaks are optional: serving has figures with them (FP16, and INT8 where the vendor states it).
    number('tflops', 0, 100000, false), number('tops', 0, 100000, false),
    label('platform', el('select', { name: 'platform', 'data-testid': 'own-platform' },
      ...PLATFORMS.map(([value, text]) => el('option', { value }, text)))),
    // Optional too: which engines run on a CUDA card, and an Apple GPU's decode rule (the M5's).
    number('arch', 0, 99, false),
    el('label', { class: 'check' }, el('input', { type: 'checkbox', name: 'unified', 'data-testid': 'own-unified' }),
      el('span', { 'data-i18n': 'own.unified' })),
    el('button', { type: 'submit', class: 'button', 'data-testid': 'own-apply', 'data-i18n': 'own.apply' }));
  byId(root, 'own-device').append(el('p', { class: 'muted', 'data-i18n': 'own.help' }), form);
  return form;
}

/**
 * The form's device as the link writes it, "custom:<memory>:<bandwidth>[:<FP16 TFLOPS>[/<INT8
 * TOPS>]]:<platform>[+unified][@<compute capability>]:<name>", for state.js customDevice to check
 * (an INT8 peak without the FP16 one is written "0/<TOPS>", which it refuses).
 */
export function ownDeviceText(form) {
  const f = form.elements;
  const [tflops, tops] = [Number(f.tflops.value), Number(f.tops.value)];
  const peaks = tflops || tops ? `${tflops}${tops ? `/${tops}` : ''}:` : '';
  const platform = f.platform.value;
  const arch = Number(f.arch.value);
  return `custom:${Number(f.memory.value)}:${Number(f.bandwidth.value)}:${peaks}${platform}` +
    `${f.unified.checked && platform !== 'metal' ? '+unified' : ''}${arch > 0 ? `@${arch}` : ''}:${f.name.value.trim()}`;
}
