// embed.html: the widget inside an iframe, for sites that allow no scripts of their own. The
// hash carries the element's attributes (#model=…&format=…&context=…&device=…&batch=…&kv=…
// &gpus=…&lang=…&sections=…); the page tells its parent how tall it is
// ({type: 'vramcalc:height', height}) so a host that listens can size the iframe to it.
import { VramCalculator } from '../widget.js';
import { knownLang } from './i18n.js';

const calculator = document.getElementById('calculator');

function applyHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  for (const name of VramCalculator.observedAttributes) {
    const value = params.get(name);
    if (value === null) calculator.removeAttribute(name);
    else calculator.setAttribute(name, value.slice(0, 200));
  }
  const lang = knownLang(params.get('lang'));
  if (lang) document.documentElement.lang = lang;
}

applyHash();
window.addEventListener('hashchange', applyHash);
if (window.parent !== window) {
  new ResizeObserver(() => {
    window.parent.postMessage({ type: 'vramcalc:height', height: document.documentElement.scrollHeight }, '*');
  }).observe(document.body);
}
