// The page's entry point: loads the core while it prepares the number formats, then hands the
// document to the page controller.
import { loadCore } from './core.js';
import { startPage } from './controller.js';
import * as fmt from './format.js';
import { browserLang, knownLang } from './i18n.js';

async function start() {
  let core;
  try {
    const loading = loadCore();
    // While the module downloads and compiles: the number formats of the language the page
    // will most likely show (the link's, else the browser's).
    const linked = knownLang(new URLSearchParams(location.hash.slice(1)).get('lang'));
    fmt.prepare(linked ?? browserLang());
    core = await loading;
  } catch (error) {
    // The UI strings live in the core, so this one message is built in, in both languages.
    const notice = document.getElementById('notice');
    notice.hidden = false;
    notice.textContent = 'Der Rechenkern konnte nicht geladen werden / The estimation core could not be loaded: ' +
      String(error?.message ?? error);
    return;
  }
  startPage(core, document);
}

start();
