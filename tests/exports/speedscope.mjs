// speedscope.mjs JSON SPEEDSCOPE CHROME [JSON SPEEDSCOPE CHROME...] - load callgraph's exports into
// speedscope itself (its npm package's UI in headless Chromium, through
// playwright-core and Debian's /usr/bin/chromium).
//
// JSON is callgraph's --json of the same trace.  SPEEDSCOPE (--speedscope)
// is first validated against the file-format-schema.json the package ships
// (ajv), then imported through the page's "Browse" file input; the profile
// speedscope built is read back through its own Export button, whose file
// has per thread an evented profile: its total weight (endValue -
// startValue) must be the thread's inclusive time and its open events the
// thread's calls, except that speedscope keeps no call of 0 us.  The CHROME
// file (--chrome-trace) is imported the same way; its open events per
// thread must be the file's "B" events.  One browser for every triple.
// Prints one line per failure, closes with "speedscope: N passed, N failed".
import Ajv from 'ajv';
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const release = resolve(here, 'node_modules/speedscope/dist/release');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let passed = 0, failed = 0;
function check(name, ok, detail) {
  if (ok) passed++;
  else { failed++; console.log(`FAIL speedscope ${name}${detail !== undefined ? ': ' + detail : ''}`); }
}
function eq(name, got, want) {
  const g = JSON.stringify(got), w = JSON.stringify(want);
  check(name, g === w, `got ${g}, want ${w}`);
}

const args = process.argv.slice(2);
const schema = JSON.parse(readFileSync(resolve(release, 'file-format-schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

// 2. Through the UI: import, then export what speedscope understood.
async function roundTrip(browser, file) {
  current = file;
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 }, acceptDownloads: true });
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(pathToFileURL(resolve(release, 'index.html')).href, { waitUntil: 'load' });
  const t0 = Date.now();
  await page.setInputFiles('input[type=file]', file);
  if (process.env.CG_TIMING) console.log('import', Date.now() - t0);
  // The toolbar's Export appears once a profile is loaded.
  const exp = page.getByText('Export', { exact: false }).first();
  await exp.waitFor({ timeout: 180000 });
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 180000 }), exp.click()]);
  const out = JSON.parse(readFileSync(await dl.path(), 'utf8'));
  if (process.env.CG_TIMING) console.log('export', Date.now() - t0);
  check(`${file}: no page errors`, errors.length === 0, errors.slice(0, 3).join(' | '));
  await page.close();
  return out;
}

const opens = p => p.events.filter(e => e.type === 'O').length;
// Calls that last longer than 0 us: speedscope's model keeps no empty call.
function timed(events, isOpen, at) {
  const stack = [];
  let n = 0;
  for (const e of events) {
    if (isOpen(e)) stack.push(at(e));
    else if (at(e) > stack.pop()) n++;
  }
  return n;
}

const tl = Date.now();
let current = '';
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
if (process.env.CG_TIMING) console.log('launch', Date.now() - tl);
try {
  for (let a = 0; a + 2 < args.length; a += 3) {
    const [jsonPath, ssPath, chromePath] = args.slice(a, a + 3);
    const model = JSON.parse(readFileSync(jsonPath, 'utf8'));
    const ss = JSON.parse(readFileSync(ssPath, 'utf8'));
    // 1. The published schema.
    check(`${ssPath} valid against file-format-schema.json`, validate(ss),
      JSON.stringify(validate.errors && validate.errors.slice(0, 3)));
    const back = await roundTrip(browser, ssPath);
    eq(`${ssPath}: one profile per thread`, back.profiles.length, model.threads.length);
    model.threads.forEach((t, i) => {
      const p = back.profiles[i];
      if (p) eq(`${ssPath}: thread ${t.tid} total weight = inclusive time`, p.endValue - p.startValue, t.inclusive_us);
    });
    const calls = model.methods.reduce((s, m) => s + m.calls + m.recursive_calls, 0);
    eq(`${ssPath}: open events in the file = calls`, ss.profiles.reduce((s, p) => s + opens(p), 0), calls);
    // Per thread: every call that lasted at all survives the round trip.
    ss.profiles.forEach((p, i) => {
      if (back.profiles[i])
        eq(`${ssPath}: thread ${i} calls longer than 0 us`, opens(back.profiles[i]),
          timed(p.events, e => e.type === 'O', e => e.at));
    });
    const tr = JSON.parse(readFileSync(chromePath, 'utf8'));
    const by = {};
    for (const e of tr.traceEvents) if (e.ph === 'B' || e.ph === 'E') (by[e.tid] = by[e.tid] || []).push(e);
    const want = Object.values(by).map(evs => evs.filter(e => e.ph === 'B').length);
    const got = await roundTrip(browser, chromePath);
    eq(`${chromePath}: calls per thread`, got.profiles.map(opens).filter(n => n > 0).sort((x, y) => x - y),
      want.filter(n => n > 0).sort((x, y) => x - y));
  }
} catch (e) {
  check(`${current}: import and export through the UI`, false, String(e));
} finally {
  await browser.close();
}
console.log(`speedscope: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
