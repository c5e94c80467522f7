// The reference page's numbers on the built page: German by default (a German browser, no
// hash), English through #lang=en and through the language select, and the language taken from
// the browser when the link names none. Expected values: support/reference.mjs, read from
// tests/golden/reference-page.json (the table of tests/golden/reference-page.txt) and converted
// to the page's number format there.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  TEST_TIMEOUT_MS, assertHealthy, byTestId, launch, openPage, shownText, waitForHash, waitForText,
} from './support/harness.mjs';
import { REFERENCE, REFERENCE_FILE, toGerman } from './support/reference.mjs';
import { readReferenceView, referenceViewDifferences } from './support/reference-view.mjs';

let env;

/**
 * Compares the page with the reference page in `lang` and fails once with every difference.
 */
async function assertReferenceView(page, lang) {
  const wrong = referenceViewDifferences(await page.evaluate(readReferenceView), lang);
  assert.deepEqual(wrong, [], `the ${lang} page differs from ${REFERENCE_FILE}:\n${wrong.join('\n')}`);
}

describe('the reference page', { timeout: TEST_TIMEOUT_MS * 4 }, () => {
  before(async () => { env = await launch(); }, { timeout: TEST_TIMEOUT_MS });
  after(async () => env?.close(), { timeout: TEST_TIMEOUT_MS });
  beforeEach(() => { env.problems.length = 0; });

  test('the default page (German browser, no hash) shows every number of the reference page in German',
    { timeout: TEST_TIMEOUT_MS }, async () => {
      const { page } = env;
      await openPage(env, page);
      await assertReferenceView(page, 'de');
      assert.equal(await page.locator(byTestId('notice')).isHidden(), true, 'no notice on the default page');
      await assertHealthy(env, page, 'default page');
    });

  test('#lang=en shows the same numbers in English', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { page } = env;
    await openPage(env, page, '#lang=en');
    await assertReferenceView(page, 'en');
    await assertHealthy(env, page, '#lang=en');
  });

  test('the language select switches German ⇄ English and writes lang to the link', { timeout: TEST_TIMEOUT_MS },
    async () => {
      const { page } = env;
      await openPage(env, page);
      const lang = page.locator(byTestId('lang'));
      assert.equal(await lang.inputValue(), 'de');
      await lang.selectOption('en');
      await waitForText(env, page, 'fit', 'Tight (>90 % in use)');
      await assertReferenceView(page, 'en');
      await waitForHash(env, page, (hash) => new URLSearchParams(hash.slice(1)).get('lang') === 'en', 'hash has lang=en');
      await assertHealthy(env, page, 'after choosing English');

      await lang.selectOption('de');
      await waitForText(env, page, 'fit', REFERENCE.simulator.fit);
      await assertReferenceView(page, 'de');
      await waitForHash(env, page, (hash) => new URLSearchParams(hash.slice(1)).get('lang') === 'de', 'hash has lang=de');
      await assertHealthy(env, page, 'after choosing German again');
    });

  test('without lang in the link the browser language decides (English, else German)', { timeout: TEST_TIMEOUT_MS },
    async () => {
      const { total } = REFERENCE.simulator; // "21.78 GB" in English, "21,78 GB" in German
      const cases = [
        [['en-US', 'en'], '', 'en', total],
        [['fr-FR', 'en-GB'], '', 'en', total], // the first language the page speaks
        [['fr-FR', 'it'], '', 'de', toGerman(total)], // none: German
        [['en-US'], '#lang=de', 'de', toGerman(total)], // the link wins
      ];
      for (const [languages, hash, lang, shown] of cases) {
        const page = await env.context.newPage();
        try {
          await page.addInitScript((list) => {
            Object.defineProperty(Navigator.prototype, 'languages', { get: () => list, configurable: true });
            Object.defineProperty(Navigator.prototype, 'language', { get: () => list[0], configurable: true });
          }, languages);
          await openPage(env, page, hash);
          const what = `navigator.languages ${languages.join(',')}${hash ? ` with ${hash}` : ''}`;
          assert.equal(await page.evaluate(() => document.documentElement.lang), lang, `${what}: <html lang>`);
          assert.equal(await page.locator(byTestId('lang')).inputValue(), lang, `${what}: lang select`);
          assert.equal(await shownText(page, 'total'), shown, `${what}: total`);
          await assertHealthy(env, page, what);
        } finally {
          await page.close();
        }
      }
    });
});
