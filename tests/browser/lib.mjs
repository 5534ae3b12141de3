// lib.mjs - what the browser checks share: Chromium's path and flags, a
// counter of checks that prints one line per failure and the closing
// "PART: N passed, N failed" line, and a watcher of a page's requests,
// dialogs and errors.
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// Headless Chromium; playwright gives it a fresh temporary profile of its own.
export const launch = () => chromium.launch({ executablePath: CHROMIUM, args: ARGS });

// checks(PART): { check(name, ok, detail), eq(name, got, want), done(),
// fail(error) }.  done() prints the closing line and exits 1 when anything
// failed; fail() counts an exception as one more failure first.
export function checks(part) {
  let passed = 0, failed = 0;
  const check = (name, ok, detail) => {
    if (ok) {
      passed++;
    } else {
      failed++;
      console.log(`FAIL ${part} ${name}${detail !== undefined ? ': ' + detail : ''}`);
    }
  };
  const eq = (name, got, want) => {
    const g = JSON.stringify(got), w = JSON.stringify(want);
    check(name, g === w, `got ${g}, want ${w}`);
  };
  const done = () => {
    console.log(`${part}: ${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
  };
  const fail = e => {
    check('exception', false, e && e.stack ? e.stack : String(e));
    done();
  };
  return { check, eq, done, fail };
}

// Watches a page: network requests other than URL itself, dialogs (dismissed),
// script errors and console errors.
export function watch(page, url) {
  const w = { requests: [], dialogs: [], errors: [] };
  page.on('request', r => { if (r.url() !== url) w.requests.push(r.url()); });
  page.on('dialog', d => { w.dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  page.on('pageerror', e => w.errors.push(String(e)));
  page.on('console', m => { if (m.type() === 'error') w.errors.push(m.text()); });
  return w;
}
