// <vram-calculator>: the calculator for documentation pages. Importing this module defines the
// element; js/widget-element.js holds the class alone, for sites that register it under
// another tag (VramCalculator.define('my-tag')).
//
//   <script type="module" src="…/widget.js"></script>
//   <vram-calculator model="glm-4-9b-0414" format="Q4_K_M" context="32768"
//                    device="rtx-3060-12gb" lang="en" sections="simulator,matrix,hardware">
//   </vram-calculator>
//
// Every widget on a page shares one wasm instance. The module finds its files relative to
// itself, so the folder can live under any path; it needs no inline script, no eval and no
// service worker, and works under `script-src 'self' 'wasm-unsafe-eval'`. After every
// recompute it dispatches `estimate-change` with the core's response (the sections it computes,
// web/README.md) as detail.
import { VramCalculator } from './js/widget-element.js';

VramCalculator.define();

export { VramCalculator };
