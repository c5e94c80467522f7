// One small adapter per browser engine, so that tests/web/engines.test.mjs writes each
// scenario once and runs it in every engine:
//
//   chromium  Debian's chromium, driven by playwright-core (as the other browser tests)
//   firefox   Debian's firefox-esr, driven by puppeteer-core over WebDriver BiDi
//   webkit    Debian's WebKitGTK MiniBrowser through WebKitWebDriver (W3C WebDriver), driven by
//             selenium-webdriver, in a virtual X display (xvfb-run): WebKitGTK has no headless
//             mode and Debian's WebKitWebDriver no WebDriver BiDi
//
// engine.launch({ languages }) gives a session:
//   version           the engine and its exact version, as the browser reports it
//   goto(url)         navigates and waits for the load event
//   evaluate(fn, arg) runs fn(arg) in the page (fn uses nothing from outside itself; a returned
//                     promise is awaited) and returns the JSON-compatible result
//   press(key)        presses a key ('ArrowLeft', 'ArrowRight') on the focused element, as the
//                     user's keyboard does (a trusted event from the driver)
//   problems          what the driver itself saw go wrong (console errors, uncaught errors,
//                     dialogs), where the driver can see it; tests/web/support/page-probe.js
//                     reports the same inside the page for every engine
//   close()
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { Builder, Key } from 'selenium-webdriver';
import { CHROMIUM_ARGS, WAIT_MS, chromiumPath } from './harness.mjs';

export const firefoxPath = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
export const webkitDriverPath = process.env.WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver';
/** libwebkit2gtk-4.1's MiniBrowser, in the machine's multiarch folder (x86_64-linux-gnu, …). */
function findMiniBrowser() {
  const candidates = readdirSync('/usr/lib').filter((dir) => dir.includes('-linux-'))
    .map((dir) => `/usr/lib/${dir}/webkit2gtk-4.1/MiniBrowser`);
  return candidates.find((file) => existsSync(file)) ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
}
export const miniBrowserPath = process.env.WEBKIT_BROWSER ?? findMiniBrowser();
const XVFB_RUN = '/usr/bin/xvfb-run';
// Starting a browser: Firefox takes 5.5 s here on a busy 2-core machine; leave room.
const LAUNCH_MS = 30_000;

/** Why an engine cannot run here (the files it needs and how to get them), or null. */
async function missing(files) {
  const absent = [];
  for (const [file, hint] of files) await access(file).catch(() => absent.push(`${file} is missing: ${hint}`));
  return absent.length > 0 ? absent.join('\n') : null;
}

const chromiumAdapter = {
  name: 'chromium',
  prerequisites: () => missing([[chromiumPath, "apt-get install chromium (or set CHROMIUM)"]]),
  async launch({ languages }) {
    const browser = await chromium.launch({
      executablePath: chromiumPath, headless: true, timeout: LAUNCH_MS, args: [...CHROMIUM_ARGS],
    });
    const context = await browser.newContext({ locale: languages[0] });
    context.setDefaultTimeout(WAIT_MS);
    context.setDefaultNavigationTimeout(WAIT_MS);
    const page = await context.newPage();
    const problems = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.stack ?? error}`));
    page.on('crash', () => problems.push('the page crashed'));
    page.on('dialog', (dialog) => {
      problems.push(`a ${dialog.type()} dialog opened: ${dialog.message()}`);
      dialog.dismiss().catch(() => {});
    });
    return {
      version: `Chromium ${browser.version()}`,
      problems,
      goto: async (url) => { await page.goto(url, { waitUntil: 'load' }); },
      evaluate: (fn, arg) => page.evaluate(fn, arg),
      press: (key) => page.keyboard.press(key),
      close: () => browser.close(),
    };
  },
};

// Firefox reports a request its service worker was still answering when the page went away as
// an uncaught error of the tab, often after the next page has loaded. The tests leave pages while
// they still load what later sections need (goto('about:blank') after the first numbers): that
// is the browser cancelling a response, not the page failing. A service worker that fails to
// answer a page that stays still breaks the page's checks, and Chromium's and WebKit's reports.
const LEFT_MID_RESPONSE = /A ServiceWorker intercepted the request and encountered an unexpected error/;

const firefoxAdapter = {
  name: 'firefox',
  prerequisites: () => missing([[firefoxPath, 'apt-get install firefox-esr (or set FIREFOX)']]),
  async launch({ languages }) {
    const browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: firefoxPath,
      headless: true,
      protocol: 'webDriverBiDi',
      timeout: LAUNCH_MS,
      extraPrefsFirefox: { 'intl.accept_languages': languages.join(', ') },
    });
    try {
      const page = (await browser.pages())[0] ?? (await browser.newPage());
      page.setDefaultTimeout(WAIT_MS);
      page.setDefaultNavigationTimeout(WAIT_MS);
      const problems = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
      });
      page.on('pageerror', (error) => {
        if (!LEFT_MID_RESPONSE.test(String(error))) problems.push(`page error: ${error.stack ?? error}`);
      });
      page.on('dialog', (dialog) => {
        problems.push(`a ${dialog.type()} dialog opened: ${dialog.message()}`);
        dialog.dismiss().catch(() => {});
      });
      // "firefox/153.8.0" (the ESR's own version string says "153.8.0esr").
      const version = (await browser.version()).replace(/^firefox\//i, '');
      return {
        version: `Firefox ESR ${version}`,
        problems,
        goto: async (url) => { await page.goto(url, { waitUntil: 'load' }); },
        evaluate: (fn, arg) => page.evaluate(fn, arg),
        press: (key) => page.keyboard.press(key),
        close: () => browser.close(),
      };
    } catch (error) {
      await browser.close().catch(() => {});
      throw error;
    }
  },
};

/** A port that was free a moment ago (WebKitWebDriver takes a port number, not 0). */
async function freePort() {
  const server = createServer();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Waits until the WebDriver server answers /status ready, or the process has ended. */
async function waitForDriver(url, child, output) {
  const deadline = Date.now() + LAUNCH_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited with ${child.exitCode}: ${output.join('')}`);
    const ready = await fetch(`${url}/status`).then((r) => r.json()).then((r) => r.value?.ready === true, () => false);
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`WebKitWebDriver did not answer at ${url} within ${LAUNCH_MS} ms: ${output.join('')}`);
}

const SELENIUM_KEYS = { ArrowLeft: Key.ARROW_LEFT, ArrowRight: Key.ARROW_RIGHT, Enter: Key.ENTER };

const webkitAdapter = {
  name: 'webkit',
  prerequisites: () => missing([
    [webkitDriverPath, 'apt-get install webkit2gtk-driver (or set WEBKIT_DRIVER)'],
    [miniBrowserPath, 'apt-get install webkit2gtk-driver, which brings libwebkit2gtk-4.1 (or set WEBKIT_BROWSER)'],
    [XVFB_RUN, 'apt-get install xvfb'],
  ]),
  // WebKitGTK takes its language from the process locale (setlocale), and this machine has no
  // locale but C installed: navigator.language is "C" whatever `languages` asks for. The page
  // shows German for a language it does not speak, so the default view is still German.
  async launch() {
    const port = await freePort();
    // Its own process group, so that close() ends xvfb-run, Xvfb and the driver together.
    const child = spawn(XVFB_RUN, ['--auto-servernum', webkitDriverPath, `--port=${port}`], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(String(chunk)));
    child.stderr.on('data', (chunk) => output.push(String(chunk)));
    const stopDriver = () => {
      process.off('exit', stopDriver);
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    };
    process.on('exit', stopDriver);  // a test run that ends early leaves no Xvfb behind
    try {
      const url = `http://127.0.0.1:${port}`;
      await waitForDriver(url, child, output);
      const driver = await new Builder()
        .withCapabilities({ 'webkitgtk:browserOptions': { binary: miniBrowserPath, args: ['--automation'] } })
        .forBrowser('MiniBrowser')
        .usingServer(url)
        .disableEnvironmentOverrides()  // SELENIUM_REMOTE_URL must not send it elsewhere
        .build();
      await driver.manage().setTimeouts({ script: WAIT_MS, pageLoad: WAIT_MS });
      const capabilities = await driver.getCapabilities();
      return {
        version: `WebKitGTK ${capabilities.get('browserVersion')} (MiniBrowser, WebKitWebDriver)`,
        // WebDriver classic shows neither console messages nor uncaught errors: the page
        // probe reports those. An open dialog makes the next command fail.
        problems: [],
        goto: (url) => driver.get(url),
        evaluate: (fn, arg) => driver.executeScript(fn, arg),
        press: (key) => driver.actions().sendKeys(SELENIUM_KEYS[key] ?? key).perform(),  // a character as itself
        async close() {
          await driver.quit().catch(() => {});
          stopDriver();
        },
      };
    } catch (error) {
      stopDriver();
      throw error;
    }
  },
};

export const ENGINES = Object.freeze([chromiumAdapter, firefoxAdapter, webkitAdapter]);

/**
 * The engines to run: all, or the comma-separated names in VRAMCALC_ENGINES (for working on
 * one engine; CI runs all of them).
 */
export function selectedEngines() {
  const wanted = process.env.VRAMCALC_ENGINES?.split(',').map((name) => name.trim()).filter(Boolean);
  if (!wanted) return ENGINES;
  const unknown = wanted.filter((name) => !ENGINES.some((engine) => engine.name === name));
  if (unknown.length > 0) throw new Error(`VRAMCALC_ENGINES names unknown engines: ${unknown.join(', ')}`);
  return ENGINES.filter((engine) => wanted.includes(engine.name));
}
