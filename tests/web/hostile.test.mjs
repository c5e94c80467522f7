// The hostile-input table (tests/support/hostile-inputs.mjs) through the page's two entry
// points: the URL hash and the form fields (the context number, the config.json paste area,
// the selects). After every case: a message naming the field in the UI language, the page
// still computing (the slider moves the numbers), no NaN / undefined / Infinity / [object in
// the page's text but for the quoted input itself, and no console error.
// (The CLI and the wasm module: tests/wasm/hostile.test.mjs.)
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  TEST_TIMEOUT_MS, WAIT_MS, assertNoProblems, byTestId, loadCore, openPage, repoRoot, shareBrowser,
  waitForExactDataValue,
} from './support/harness.mjs';
import {
  BASE_CONFIG, EXTRA_CASES, FIELDS, VALUES, configBytes, forbiddenWordIn,
} from '../support/hostile-inputs.mjs';

let env;
let strings;  // assets/i18n/{de,en}.json
const MAX_ECHO = 40;  // characters of a bad value the page quotes back (main.js)
const DEFAULT_CONTEXT = 32768;

/** The fixed start of a UI string, before its first placeholder. */
const lead = (lang, key) => strings[lang][key].split('{')[0].trim();

/** The page's text must show no broken value; `echoes` are the user's own input quoted back. */
function assertCleanText(text, where, echoes = []) {
  const plain = text.replace(/[\u00a0\u202f]/g, ' ');
  const word = forbiddenWordIn(plain, echoes);
  const at = plain.indexOf(word);
  assert.equal(word, null, `${where}: the page shows "${word}": …${plain.slice(Math.max(0, at - 80), at + 80)}…`);
}

/** Waits until the notice is shown and holds every one of `parts`; returns its text. */
async function waitForNotice(page, parts, where) {
  const deadline = Date.now() + 10_000;
  let text = null;
  while (Date.now() < deadline) {
    text = await page.evaluate(() => {
      const notice = document.querySelector('[data-testid="notice"]');
      return notice.hidden ? null : notice.innerText.replace(/[\u00a0\u202f]/g, ' ');
    });
    if (text !== null && parts.every((part) => text.includes(part))) return text;
    await page.waitForTimeout(20);
  }
  return assert.fail(`${where}: the notice should name ${JSON.stringify(parts)}; it reads ${JSON.stringify(text)}; ` +
    `problems: ${env.problems.join('; ') || 'none'}`);
}

let slider = 12;
/**
 * The page still computes after a case: the slider moves the context and with it the total.
 * Reads what the page shows (notice, language, model, the whole text) in the same trip; with
 * `config`, first submits that text from the config.json paste area.
 */
async function probe(page, where, config = null) {
  slider = slider === 12 ? 13 : 12;
  const seen = await page.evaluate(async ([position, text]) => {
    const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
    // The page renders in a requestAnimationFrame callback queued before this one.
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    if (text !== null) {
      const area = $('custom-config');
      area.value = text;
      area.dispatchEvent(new Event('input', { bubbles: true }));
      area.form.requestSubmit();
    }
    await frame();
    const before = $('total').dataset.value;
    const range = $('context');
    range.value = String(position);
    range.dispatchEvent(new Event('input', { bubbles: true }));
    await frame();
    const notice = $('notice');
    return {
      before,
      total: $('total').dataset.value,
      context: $('context-value').dataset.value,
      notice: notice.hidden ? null : notice.innerText.replace(/[\u00a0\u202f]/g, ' '),
      lang: document.documentElement.lang,
      model: $('model').value,
      text: document.body.innerText,
    };
  }, [slider, config]);
  assert.equal(seen.context, String(2 ** slider), `${where}: the slider sets the context`);
  assert.ok(Number.isFinite(Number(seen.total)) && seen.total !== seen.before,
    `${where}: the slider moves the total (${seen.before} -> ${seen.total})`);
  return seen;
}

describe('hostile inputs: the page', { timeout: TEST_TIMEOUT_MS * 4 }, () => {
  shareBrowser((launched) => { env = launched; }, {
    setUp: async () => {
      strings = Object.fromEntries(await Promise.all(['de', 'en'].map(async (lang) =>
        [lang, JSON.parse(await readFile(path.join(repoRoot, 'assets/i18n', `${lang}.json`), 'utf8'))])));
    },
  });

  /**
   * One link: every [key, encoded value] of `pairs` must be named in the notice, in `lang`;
   * opened afresh (`load`, the start-up path) or as an edited hash.
   */
  async function linkCase(page, pairs, { lang, load, where }) {
    const hash = `#${pairs.map(([key, encoded]) => `${key}=${encoded}`).join('&')}${lang === 'en' ? '&lang=en' : ''}`;
    if (load) await openPage(env, page, hash);
    else await page.evaluate((h) => { location.hash = h; }, hash);
    const echoes = pairs.map(([key, encoded]) =>
      `${key.slice(0, MAX_ECHO)}=${new URLSearchParams(`${key}=${encoded}`).get(key).slice(0, MAX_ECHO)}`);
    // The link's keys name the fields, in a sentence in the UI language.
    await waitForNotice(page, [lead(lang, 'notice.invalid'), ...echoes], where);
    const seen = await probe(page, where);
    assert.equal(seen.lang, lang, `${where}: the UI language`);
    assertCleanText(seen.text, where, echoes);
    assertNoProblems(env);
  }

  test('the URL hash: every value of the table in every link key', { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
    const { page } = env;
    await openPage(env, page);
    const keys = FIELDS.filter((f) => f.hash).map((f) => f.hash);
    for (const [i, value] of VALUES.entries()) {
      const lang = i % 2 === 0 ? 'de' : 'en';  // lang=<value> then lang=en: the bad one is named, en applies
      const encoded = encodeHash(value.hash);
      const where = `link with ${value.id} (${lang})`;
      if (value.hash.length > 100_000) {
        // A link holds at most 2 MB: the 1 MB value goes into one key per link, two links.
        await linkCase(page, [['context', encoded]], { lang, load: true, where: `${where} in context` });
        await linkCase(page, [['model', encoded]], { lang, load: false, where: `${where} in model` });
        continue;
      }
      // Every key at once (a garbage link); the start-up path for a few, an edited hash for the rest.
      const load = ['NaN', 'invalid UTF-8', '10,000 nested arrays'].includes(value.id);
      await linkCase(page, keys.map((key) => [key, encoded]), { lang, load, where });
      // The defaults apply instead of the bad values.
      const controls = await page.evaluate(() => ['model', 'format', 'kv', 'batch', 'gpus', 'device'].map(
        (id) => document.querySelector(`[data-testid="${id}"]`).value));
      assert.deepEqual(controls, ['glm-4-32b-0414', 'Q4_K_M', 'fp16', '1', 'auto', 'auto'], `${where}: the defaults`);
    }
    for (const extra of EXTRA_CASES.filter((c) => c.hash)) {
      await linkCase(page, [extra.hash.split('=')], { lang: 'en', load: true, where: extra.id });
    }
  });

  test('the context field: every value of the table typed in', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page);
    const field = page.locator(byTestId('context-number'));
    const max = Number(await field.getAttribute('max'));
    for (const [i, value] of VALUES.entries()) {
      const lang = i < VALUES.length / 2 ? 'de' : 'en';
      if (await page.evaluate(() => document.documentElement.lang) !== lang) {
        await page.locator(byTestId('lang')).selectOption(lang);
        await page.waitForFunction((l) => document.documentElement.lang === l, lang);
      }
      const where = `context field: ${value.id} (${lang})`;
      // What a person types or pastes: the link's text decoded, or unpaired surrogates.
      const typed = value.id === 'invalid UTF-8' ? value.js : new URLSearchParams(`v=${encodeHash(value.hash)}`).get('v');
      const inUse = await page.locator(byTestId('context-value')).getAttribute('data-value');
      await field.focus();
      await page.keyboard.press('Control+A');
      await page.keyboard.insertText(typed);
      const kept = await field.inputValue();  // a number field drops what cannot be part of a number
      await field.press('Enter');
      if (/^\d+$/.test(kept) && Number(kept) >= 1 && Number(kept) <= max) {
        // Only digits survived (e.g. "[32768]" -> "32768"): a valid context, taken as such.
        await waitForExactDataValue(env, page, 'context-value', kept);
        assertCleanText((await probe(page, where)).text, where);
      } else {
        // Named by its label, in the UI language ("Die Kontextlänge muss …", "The context length must …").
        // The whole sentence, with this case's input quoted (a stale notice would quote another).
        const expected = strings[lang][kept ? 'notice.context' : 'notice.context_unread']
          .replace('{max}', new Intl.NumberFormat(lang).format(max)).replace('{value}', kept.slice(0, MAX_ECHO));
        const notice = await waitForNotice(page, [expected], where);
        const label = strings[lang]['sim.context_label'].toLowerCase();
        assert.ok(notice.toLowerCase().includes(label), `${where}: the notice names "${label}": ${notice}`);
        assert.equal(await field.inputValue(), inUse, `${where}: the field shows the context in use again`);
        assertCleanText((await probe(page, where)).text, where, [kept.slice(0, MAX_ECHO)]);
      }
      assertNoProblems(env);
    }
  });

  test('the config.json paste area: every config field × every value of the table', { timeout: TEST_TIMEOUT_MS * 2 },
    async () => {
      const { page } = env;
      await openPage(env, page, '#lang=de');
      await page.locator(`${byTestId('custom')} summary`).click();
      const area = page.locator(byTestId('custom-config'));
      const fields = FIELDS.filter((f) => f.config);
      for (const [n, field] of fields.entries()) {
        const lang = n < fields.length / 2 ? 'de' : 'en';
        if (await page.evaluate(() => document.documentElement.lang) !== lang) {
          await page.locator(byTestId('lang')).selectOption(lang);
          await page.waitForFunction((l) => document.documentElement.lang === l, lang);
        }
        for (const value of VALUES) {
          const where = `config.json ${field.config} = ${value.id} (${lang})`;
          // As a dropped file is read: bytes that are not UTF-8 become U+FFFD. The first field
          // is typed and applied as a person does; the rest is submitted inside the page (the
          // same submit handler reads the same textarea), which keeps this test short.
          const text = configBytes(field, value).toString('utf8');
          let seen;
          if (n === 0) {
            await area.fill(text);
            await page.locator(byTestId('custom-apply')).click();
            // The first config.json waits for the importer's module (vramcalc-full.wasm).
            await page.locator(byTestId('notice')).waitFor({ state: 'visible', timeout: WAIT_MS });
            seen = await probe(page, where);
          } else {
            seen = await probe(page, where, text);
          }
          const parts = [lead(lang, 'custom.error'), `(model.${field.config})`];
          assert.ok(seen.notice && parts.every((part) => seen.notice.includes(part)),
            `${where}: the notice should name ${JSON.stringify(parts)}; it reads ${JSON.stringify(seen.notice)}`);
          assert.equal(seen.model, 'glm-4-32b-0414', `${where}: the model stays`);
          // The core's detail may quote the pasted value ("not \"undefined\"").
          assertCleanText(seen.text, where, [`"${value.json.toString().slice(0, 30)}`]);
          assertNoProblems(env);
        }
      }
      // An unknown config.json key is ignored: the model is taken.
      await area.fill(JSON.stringify({ ...BASE_CONFIG, my_own_flag: [1, { deep: true }] }));
      await page.locator(byTestId('custom-apply')).click();
      await page.waitForFunction(() => document.querySelector('[data-testid="model"]').value === 'custom');
      assertCleanText((await probe(page, 'a config.json with an unknown key')).text, 'a config.json with an unknown key');
      assertNoProblems(env);
    });

  test('the selects offer only values the core accepts', { timeout: TEST_TIMEOUT_MS }, async () => {
    // batch, gpus, model, format, kv, device and lang are selects: no hostile value can be typed
    // into them. Every option they offer must be one the core takes (lang: one it speaks).
    const { page } = env;
    await openPage(env, page, '#lang=en');
    const options = await page.evaluate(() => Object.fromEntries(
      ['batch', 'gpus', 'model', 'format', 'kv', 'device', 'lang'].map((id) => [id,
        [...document.querySelector(`[data-testid="${id}"]`).options].map((o) => o.value)])));
    const core = await loadCore();
    const requestKey = { batch: 'batch', gpus: 'device_count', model: 'model', format: 'format', kv: 'kv_dtype',
      device: 'device' };
    // The language is the page's own: every option is one the core has UI strings for.
    assert.deepEqual(options.lang, core.catalog().langs, 'the languages');
    delete options.lang;
    for (const [id, values] of Object.entries(options)) {
      assert.ok(values.length > 0, `${id} offers options`);
      for (const value of values) {
        if (value === 'auto' || value === 'custom') continue;  // custom: a config.json stored by a test above
        const typed = ['batch', 'gpus'].includes(id) ? Number(value) : value;
        core.evaluate({ [requestKey[id]]: typed });  // fails the test on ok:false
      }
    }
    assertCleanText(await page.locator('body').innerText(), 'the selects');
    assertNoProblems(env);
  });
});

/** A value as it stands in a link: the table's text with the characters a link cannot hold escaped. */
function encodeHash(text) {
  return text.replace(/[#&+ {}"<>\[\]]/g, (c) => encodeURIComponent(c));
}
