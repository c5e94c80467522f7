// "Use my GPU": on request, the browser's own description of its GPU (WebGPU's adapter info, or
// WebGL's unmasked renderer string where the browser exposes it) mapped to catalog devices.
// Nothing is stored or sent anywhere: the text is read, matched here and dropped.

/**
 * The GPU's name out of a renderer string as browsers give it: ANGLE's wrapper on Chromium
 * ("ANGLE (NVIDIA, NVIDIA GeForce RTX 4090 (0x00002684) Direct3D11 vs_5_0 ps_5_0, D3D11)",
 * "ANGLE (Apple, ANGLE Metal Renderer: Apple M2 Max, Unspecified Version)"), OpenGL's bus
 * suffix ("…/PCIe/SSE2"), Mesa's driver details ("AMD Radeon RX 7900 XTX (radeonsi, navi31, …)"),
 * ANGLE's Vulkan wrapper, Firefox's stand-in suffix ("…, or similar") and trademark signs.
 */
export function rendererName(text) {
  let name = String(text ?? '').trim().replace(/, or similar$/, '');
  const angle = /^ANGLE \((.*)\)$/s.exec(name);
  if (angle) {
    const parts = angle[1].split(', ');
    name = parts.length >= 2 ? parts.slice(1, -1).join(', ') || parts[1] : parts[0];
  }
  const vulkan = /^Vulkan [\d.]+ \((.*)\)$/.exec(name);  // ANGLE on Vulkan: "Vulkan 1.4.312 (NVIDIA NVIDIA GeForce …)"
  if (vulkan) name = vulkan[1];
  return name
    .replace(/^ANGLE Metal Renderer: /, '')
    .replace(/^Mesa /, '')
    .replace(/\/PCIe\/SSE2$|\/PCI\/SSE2$/, '')
    .replace(/ \(0x[0-9a-f]+\).*$/i, '')
    .replace(/ \((?:radeonsi|LLVM|DRM|navi|gfx)[^)]*\).*$/i, '')
    .replace(/ Direct3D.*$| OpenGL.*$| vs_\d.*$/, '')
    .replace(/\((?:R|TM)\)|®|™/gi, '')
    .replace(/\s+/g, ' ')
    .trim();
}

// Words that make another product of the same number: "RTX 4070" is not an "RTX 4070 Ti".
const VARIANTS = new Set(['ti', 'super', 'xt', 'xtx', 'gre', 'pro', 'max', 'ultra', 'laptop', 'mobile', 'max-q', 'ada', 'd']);
const tokens = (text) => text.toLowerCase().replace(/[^a-z0-9+ ]+/g, ' ').split(' ').filter(Boolean);
// A device's product words without its memory size or form factor: "RTX 4090 24GB" → rtx 4090.
const productOf = (device) => tokens(device.name).filter((w) => !/^\d+gb$/.test(w) && w !== 'pcie' && w !== 'sxm');

/** Whether `words` holds `product` as a run not followed by a word that names a variant. */
function holds(words, product) {
  for (let i = 0; i + product.length <= words.length; i += 1) {
    if (product.every((w, j) => words[i + j] === w) && !VARIANTS.has(words[i + product.length])) return true;
  }
  return false;
}

/**
 * Whether the browser gave a stand-in rather than its GPU: Firefox names a similar, older model
 * ("NVIDIA GeForce GTX 980, or similar" for an RTX 3090; "Apple M1, or similar" for every Mac),
 * Safari only "Apple GPU". The vendor is known, the model is not.
 */
export const isStandIn = (text) => /, or similar$/.test(String(text).trim()) || /^apple gpu$/i.test(String(text).trim());

/**
 * The catalog devices a GPU name stands for, most specific first: those whose product words
 * (vendor names aside) it holds. Several when the name cannot tell the memory (an Apple chip's
 * sizes, a card sold with two); none when the catalog lacks it.
 */
export function matchDevices(name, devices) {
  const words = tokens(name).filter((w) => !['nvidia', 'geforce', 'amd', 'radeon', 'corporation', 'graphics'].includes(w));
  const matches = devices.map((device) => {
    const product = productOf(device).filter((w) => !['nvidia', 'radeon', 'amd'].includes(w));
    return { device, product };
  }).filter(({ product }) => product.length >= 2 && holds(words, product));
  const longest = Math.max(0, ...matches.map((m) => m.product.length));
  return matches.filter((m) => m.product.length === longest).map((m) => m.device);
}

/**
 * Reads the GPU's description, only when called: {text, via} or null when the browser gives
 * none. WebGPU first when its adapter info names the device, else WebGL.
 */
export async function readGpu(nav = navigator, doc = document) {
  try {
    const adapter = await nav.gpu?.requestAdapter();
    const info = adapter?.info;
    const text = info?.description || info?.device;
    if (text) return { text, via: 'webgpu' };
  } catch {
    // no WebGPU adapter here: WebGL below
  }
  const gl = doc.createElement('canvas').getContext('webgl');
  if (!gl) return null;
  const debug = gl.getExtension('WEBGL_debug_renderer_info');
  const text = gl.getParameter(debug ? debug.UNMASKED_RENDERER_WEBGL : gl.RENDERER);
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return text ? { text: String(text), via: 'webgl' } : null;
}
