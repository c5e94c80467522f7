// The page's entry point: loads the core and the strings of the language the page will speak,
// then hands the document to the page controller.
import { loadCore } from './core.js';
import { startPage } from './controller.js';
import { browserLang, knownLang, loadStrings } from './i18n.js';

async function start() {
  let core;
  try {
    const loading = loadCore();
    // While the module downloads and compiles: the strings the first numbers show, in the
    // language the page will speak (the link's, else the browser's; the controller reads it the
    // same way).
    const lang = knownLang(new URLSearchParams(location.hash.slice(1)).get('lang')) ?? browserLang();
    const strings = loadStrings(lang, document.baseURI, { first: true });
    [core] = await Promise.all([loading, strings]);
  } catch (error) {
    // Without the core or the strings there is no text to speak, so this one message is built
    // in, in both languages.
    const notice = document.getElementById('notice');
    notice.hidden = false;
    notice.textContent = 'Der Rechner konnte nicht geladen werden / The calculator could not be loaded: ' +
      String(error?.message ?? error);
    return;
  }
  startPage(core, document);
}

start();
