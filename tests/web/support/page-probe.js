// Test-only, never part of the site: a classic script that tests/web/engines.test.mjs puts
// first into the pages it serves (and inline into its copy of the single file), so that every
// engine reports the same things the same way, whatever its driver can observe: uncaught
// errors, unhandled rejections, resources that failed to load, Content-Security-Policy
// violations, console.error, alert/confirm/prompt, and resources fetched from elsewhere.
// The suite reads window.__vramcalcProbe.report().
(() => {
  if (window.__vramcalcProbe) return;
  const problems = [];
  const describe = (value) => {
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    try {
      return typeof value === 'string' ? value : JSON.stringify(value);
    } catch {
      return String(value);
    }
  };

  window.addEventListener('error', (event) => {
    if (event instanceof ErrorEvent) {
      problems.push(`uncaught error: ${event.message} (${event.filename}:${event.lineno})`);
    } else {
      const target = event.target;
      problems.push(`failed to load: <${target?.localName}> ${target?.src ?? target?.href ?? ''}`);
    }
  }, true);
  window.addEventListener('unhandledrejection', (event) => {
    problems.push(`unhandled rejection: ${describe(event.reason)}`);
  });
  document.addEventListener('securitypolicyviolation', (event) => {
    problems.push(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
  });
  const consoleError = console.error.bind(console);
  console.error = (...args) => {
    problems.push(`console.error: ${args.map(describe).join(' ')}`);
    consoleError(...args);
  };
  for (const name of ['alert', 'confirm', 'prompt']) {
    window[name] = (message) => {
      problems.push(`${name}() was called: ${describe(message)}`);
      return null;
    };
  }

  // Everything the page fetched must come from its own origin; a page from disk fetches
  // nothing from the network at all.
  const foreign = () => performance.getEntriesByType('resource').map((entry) => entry.name).filter((url) => {
    if (/^(data|blob):/.test(url)) return false;
    if (location.protocol === 'file:') return !url.startsWith('file:');
    return new URL(url).origin !== location.origin;
  });

  window.__vramcalcProbe = {
    report: () => ({ problems: [...problems], foreign: foreign() }),
  };
})();
