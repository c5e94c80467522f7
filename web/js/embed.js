// embed.html: the widget inside an iframe, for sites that allow no scripts of their own. The
// hash carries the attributes (#model=…&format=…&context=…&device=…&batch=…&kv=…&gpus=…&lang=…
// &sections=…); the page tells its parent how tall it is ({type: 'vramcalc:height', height})
// so a host that listens can size the iframe to it.
const calculator = document.getElementById('calculator');
const ATTRIBUTES = ['model', 'format', 'context', 'batch', 'kv', 'device', 'gpus', 'lang', 'sections'];

function applyHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  for (const name of ATTRIBUTES) {
    const value = params.get(name);
    if (value === null) calculator.removeAttribute(name);
    else calculator.setAttribute(name, value.slice(0, 200));
  }
  const lang = params.get('lang');
  if (lang === 'de' || lang === 'en') document.documentElement.lang = lang;
}

applyHash();
window.addEventListener('hashchange', applyHash);
if (window.parent !== window) {
  new ResizeObserver(() => {
    window.parent.postMessage({ type: 'vramcalc:height', height: document.documentElement.scrollHeight }, '*');
  }).observe(document.body);
}
