// The "Use my GPU" line (loaded on its button's first click): it reads the browser's GPU name (gpu-detect.js), says what it
// found and sets the matching catalog device; when the name fits several devices (an Apple
// chip's memory sizes, or Safari's plain "Apple GPU") it asks which, and when the catalog lacks
// it, it opens the form for a device of one's own with the name filled in. Nothing is stored or
// sent; the line says so.
import { byId, fillSelect, put } from './dom.js';
import { isStandIn, matchDevices, readGpu, rendererName } from './gpu-detect.js';
import { ownDeviceForm } from './own-device.js';

/**
 * The devices a renderer string may stand for, among those the runtime runs on: a stand-in
 * (Firefox, Safari) says only the vendor, so an Apple one offers every Apple device and any
 * other none; else the name's matches.
 */
function candidatesFor(text, name, devices) {
  if (isStandIn(text)) return /^apple/i.test(name) ? devices.filter((d) => d.vendor === 'apple') : [];
  return matchDevices(name, devices);
}

function show(root, text, picks = null, t = null) {
  const result = byId(root, 'detect-result');
  result.hidden = false;
  put(result, text);
  const pick = byId(root, 'detect-pick');
  pick.hidden = picks === null;
  if (!picks) return;
  const options = [...picks].sort((a, b) => a.memory_gib - b.memory_gib).map((d) => [d.id, d.name]);
  fillSelect(pick.querySelector('select'), [['', t('detect.choose')], ...options, [OTHER, t('detect.other_memory')]], '');
}

const OTHER = 'other';  // a memory size the catalog lacks: the own-device form, filled in

/** Opens the own-device form with what is known of the GPU (its name; a chip's bandwidth). */
function openOwnDevice(root, name, like = null) {
  const own = byId(root, 'own-device');
  if (!own) return;
  own.open = true;
  const form = ownDeviceForm(root).elements;
  form.name.value = name.slice(0, 64);
  if (like) {
    form.bandwidth.value = String(like.bandwidth_gbps);
    form.platform.value = like.platform;
    form.unified.checked = like.unified_memory;
    form.memory.focus();
  }
}

/**
 * Reads the GPU and says what it found (the button's click; this module loads then). `devices`
 * are those the scenario's runtime runs on, `t` the current strings, `apply(id)` sets the device.
 */
export async function detect(root, { devices, t, apply }) {
  const state = { name: '', like: null };  // this detection's GPU, for "another memory size"
  byId(root, 'detect-pick').onchange = (event) => {
    const { value } = event.target;
    if (value === OTHER) openOwnDevice(root, state.name, state.like);
    else if (value) apply(value);
  };
  const gpu = await readGpu().catch(() => null);
  if (!gpu) {
    show(root, t('detect.none'));
    return;
  }
  const name = rendererName(gpu.text);
  const candidates = candidatesFor(gpu.text, name, devices);
  // An Apple chip's name never tells its memory: always asked, with any other size beside.
  const apple = candidates.length > 0 && candidates.every((d) => d.vendor === 'apple');
  Object.assign(state, { name, like: isStandIn(gpu.text) ? null : candidates[0] ?? null });
  if (isStandIn(gpu.text) && candidates.length === 0) {
    show(root, t('detect.stand_in', { detected: name }));
  } else if (candidates.length === 1 && !apple) {
    apply(candidates[0].id);
    show(root, t('detect.found', { detected: name, device: candidates[0].name }));
  } else if (candidates.length > 0) {
    show(root, t(isStandIn(gpu.text) ? 'detect.pick_chip' : 'detect.pick', { detected: name }), candidates, t);
  } else {
    show(root, t('detect.unknown', { detected: name }));
    openOwnDevice(root, name);
  }
}
