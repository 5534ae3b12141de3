// test.mjs REPORT.html [BIG.html] - drive callgraph's HTML report in headless
// Chromium (Debian's /usr/bin/chromium through playwright-core).
//
// REPORT.html must be the report of tests/browser/report.desc made with
// `-t 0` (run.sh does that).  BIG.html, when given, is a report of a large
// trace: it is only loaded and checked for errors, rows and load time.
// Prints one line per failure and closes with "browser: N passed, N failed";
// exits 1 when anything failed.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checks, launch, watch } from './lib.mjs';

const { check, eq, done } = checks('browser');

// Milliseconds and percentages as the page formats them, to compare texts.
const ms = us => Math.floor(us / 1000) + '.' + String(us % 1000).padStart(3, '0');

// Visible flat-profile rows: [name, incl ms, incl %, excl ms, excl %, calls, ms/call],
// times on the wall clock (the table of a dual-clock trace has both clocks).
async function rows(page) {
  return page.$$eval('#flat tbody tr.row:not([hidden])', trs => {
    const ths = Array.from(document.querySelectorAll('#flat th[data-key]'));
    const at = key => ths.findIndex(th => th.getAttribute('data-key') === key &&
      [null, 'wall'].includes(th.getAttribute('data-clock')));
    const idx = ['incl', 'inclp', 'excl', 'exclp', 'calls', 'mpc'].map(at);
    return trs.map(tr => [tr.querySelector('.mname').textContent,
      ...idx.map(i => tr.children[i].textContent)]);
  });
}
// A parents/children row without the other clock's column: [kind, calls, %, ms, name].
const rel = x => [...x.slice(0, 4), x[x.length - 1]];
const num = s => Number(s.replace('.', ''));
const isSorted = (xs, cmp) => xs.every((x, i) => i === 0 || cmp(xs[i - 1], x) <= 0);

// Markup checks (balanced tags, unique ids, no http(s), JSON, HTML5 parse).
function checkMarkup(file) {
  const py = resolve(dirname(fileURLToPath(import.meta.url)), 'check_html.py');
  const r = spawnSync(process.env.PYTHON || 'python3', [py, file], { encoding: 'utf8' });
  check(`markup of ${file}`, r.status === 0, (r.stdout + r.stderr).trim() || `exit ${r.status}`);
}

async function testReport(browser, file) {
  const url = pathToFileURL(resolve(file)).href;
  const html = readFileSync(file, 'utf8');
  check('no http(s) reference in the file', !/https?:\/\//.test(html));
  checkMarkup(file);

  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const w = watch(page, url);
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('#flat tbody tr.row');

  // Summary and the initial table (All threads, inclusive time descending).
  const summary = await page.textContent('#summary');
  check('summary names the clock', summary.includes('times below: wall'), summary);
  check('summary gives the other clock total', summary.includes('cpu clock total 2.700 ms'));
  check('summary total', summary.includes('2.700 ms'));
  let r = await rows(page);
  eq('all methods listed', r.length, 8);
  eq('first row is the busiest method', r[0][0], 'com.example.App.onCreate');
  eq('onCreate numbers', r[0].slice(1), ['1.000', '37.04', '0.610', '22.59', '1+0', '1.000']);
  check('initially sorted by inclusive time', isSorted(r, (a, b) => num(b[1]) - num(a[1])));
  const fib = r.find(x => x[0] === 'com.example.Util.fib');
  eq('recursive calls shown as N+R', fib && fib[5], '1+2');
  const quote = r.find(x => x[0] === 'com.example.Quote.say"hi"');
  eq('ms per call is inclusive / calls', quote && quote[6], '0.055');

  // Sorting by clicking headers.
  await page.click('#flat th[data-key="name"] button');
  r = await rows(page);
  const names = r.map(x => x[0]);
  check('Method header sorts by name ascending',
    isSorted(names, (a, b) => (a < b ? -1 : a > b ? 1 : 0)), names.join(' | '));
  eq('sorted by name: first row', names[0], 'com.example.App$Inner.run');
  eq('aria-sort on the sorted header',
    await page.getAttribute('#flat th[data-key="name"]', 'aria-sort'), 'ascending');
  await page.click('#flat th[data-key="name"] button');
  r = await rows(page);
  check('second click reverses', isSorted(r.map(x => x[0]), (a, b) => (a > b ? -1 : a < b ? 1 : 0)));
  await page.click('#flat th[data-key="excl"][data-clock="wall"] button');
  r = await rows(page);
  check('Excl ms header sorts numbers descending', isSorted(r, (a, b) => num(b[3]) - num(a[3])),
    r.map(x => x[3]).join(' '));
  eq('busiest exclusive first', r[0][0], 'com.example.Draw.frame');
  await page.click('#flat th[data-key="calls"] button');
  r = await rows(page);
  check('Calls header sorts by calls', isSorted(r, (a, b) => parseInt(b[5]) - parseInt(a[5])));
  await page.click('#flat th[data-key="incl"][data-clock="wall"] button');

  // Search: smart case and the matched share of total time.
  await page.fill('#search', 'app');
  r = await rows(page);
  eq('lower-case search ignores case', r.map(x => x[0]).sort(),
    ['com.example.App$Inner.run', 'com.example.App.<init>', 'com.example.App.onCreate']);
  // exclusive 610 + 210 + 50 us of 2700 us
  let m = await page.textContent('#matched');
  check('matched share shown', m.includes('3 of 8 methods match') && m.includes('32.22%'), m);
  await page.fill('#search', 'App$');
  r = await rows(page);
  eq('a capital letter makes the search case-sensitive', r.map(x => x[0]),
    ['com.example.App$Inner.run']);
  await page.fill('#search', 'APP');
  eq('no case-insensitive match with capitals', (await rows(page)).length, 0);
  m = await page.textContent('#matched');
  check('matched share 0', m.includes('0 of 8') && m.includes('0.00%'), m);
  await page.fill('#search', '');
  eq('clearing the search shows every row', (await rows(page)).length, 8);

  // Parents and children of onCreate, then of Inner.run.
  await page.click('#row-m0x4 button.tog');
  const det = await page.$$eval('#row-m0x4 + tr.detail table.rel tbody tr', trs =>
    trs.map(tr => Array.from(tr.children, td => td.textContent)));
  eq('onCreate parents, method, children', det.map(rel), [
    ['parent', '1', '100.00', '1.000', 'main (thread 1)'],
    ['method', '1+0', '100.00', '1.000', 'com.example.App.onCreate'],
    ['child', '1', '34.00', '0.340', 'com.example.App$Inner.run'],
    ['child', '1', '5.00', '0.050', 'com.example.App.<init>'],
  ]);
  eq('toggle reports expanded', await page.getAttribute('#row-m0x4 button.tog', 'aria-expanded'),
    'true');
  await page.click('#row-m0x4 + tr.detail a.mlink >> text=com.example.App$Inner.run');
  check('child link highlights its row',
    await page.$eval('#row-m0xc', tr => tr.classList.contains('hl')));
  await page.click('#row-m0xc button.tog');
  const det2 = await page.$$eval('#row-m0xc + tr.detail table.rel tbody tr', trs =>
    trs.map(tr => Array.from(tr.children, td => td.textContent)));
  eq('Inner.run parents and children', det2.map(rel).map(x => x[0] + ' ' + x[4]), [
    'parent com.example.App.onCreate', 'method com.example.App$Inner.run',
    'child com.example.Util.fib', 'child com.example.Evil.<script>alert(1)<.script>',
    'child com.example.Quote.say"hi"']);
  await page.click('#row-m0xc + tr.detail a.mlink >> text=com.example.App.onCreate');
  check('parent link highlights its row',
    await page.$eval('#row-m0x4', tr => tr.classList.contains('hl')));
  check('only one row highlighted', (await page.$$('#flat tr.hl')).length === 1);
  await page.click('#row-m0x4 button.tog');
  eq('collapse removes the detail', (await page.$$('#row-m0x4 + tr.detail')).length, 0);

  // Graph <-> table.
  check('graph node for onCreate', (await page.$('#graph-0 svg g#m0x4')) !== null);
  await page.click('#graph-0 g#m0x18');
  check('clicking a node highlights its row',
    await page.$eval('#row-m0x18', tr => tr.classList.contains('hl')));
  check('the highlighted row is in view', await page.$eval('#row-m0x18', tr => {
    const b = tr.getBoundingClientRect();
    return b.top >= 0 && b.bottom <= innerHeight;
  }));
  await page.click('#row-m0x1c a.nodelink');
  check('row link flashes its node',
    await page.$eval('#graph-0 g#m0x1c', g => g.classList.contains('flash')));
  const html0 = await page.$eval('#graph-0', d => d.innerHTML);
  check('graph has no xmlns', !html0.includes('xmlns'));

  // Thread selector.
  await page.selectOption('#thread', '2');
  r = await rows(page);
  eq('thread 2 methods only', r.map(x => x[0]),
    ['com.example.Net.fetch', 'com.example.Evil.<script>alert(1)<.script>']);
  eq('percentages of the thread total', r.map(x => x[2]), ['62.50', '37.50']);
  const vis = await page.$$eval('#graphs div.graphview', ds => ds.filter(d => !d.hidden).map(d => d.id));
  check('thread graph shown instead of all threads', vis.length === 1 && vis[0] !== 'graph-0',
    vis.join(','));
  const pre = await page.getAttribute(`#${vis[0]}`, 'data-prefix');
  check('thread graph ids are prefixed', pre !== '' &&
    (await page.$(`#${vis[0]} g[id="${pre}m0x18"]`)) !== null, pre);
  await page.click(`#${vis[0]} g[id="${pre}m0x10"]`);
  check('thread graph node click highlights the thread row',
    await page.$eval('#row-m0x10', tr => tr.classList.contains('hl')));
  await page.click('#row-m0x10 button.tog');
  const det3 = await page.$$eval('#row-m0x10 + tr.detail table.rel tbody tr', trs =>
    trs.map(tr => Array.from(tr.children, td => td.textContent)));
  eq('root caller shown as the thread name', rel(det3[0])[4],
    'AsyncTask #1 <b>bold</b></script><script>alert(3)</script> (thread 2)');
  await page.selectOption('#thread', '0');
  eq('back to all threads', (await rows(page)).length, 8);

  // Escaping: hostile names are text, nothing was injected or run.
  const evil = await page.textContent('#row-m0x10 .mname');
  eq('script-named method shown as text', evil, 'com.example.Evil.<script>alert(1)<.script>');
  eq('signature kept verbatim in the tooltip', await page.getAttribute('#row-m0x10 .mname', 'title'),
    '(L</script><script>alert(2)</script>;)V');
  // Every script element is one the report wrote (names never make one):
  // as many as '<script' tags in the file, none with src, and only the JSON
  // data blocks mention alert(.
  eq('script elements are the report\'s own', await page.$$eval('script', ss => ss.length),
    html.split('<script').length - 1);
  check('no script element runs a name', await page.$$eval('script', ss => ss.every(s =>
    !s.src && (s.type === 'application/json' || !s.textContent.includes('alert(')))));
  eq('no <b> element from a thread name', await page.$$eval('b', s => s.length), 0);
  const opt = await page.$eval('#thread option[value="2"]', o => o.textContent);
  check('thread name escaped in the selector', opt.startsWith('AsyncTask #1 <b>bold</b></script>'), opt);
  eq('no dialog opened', w.dialogs, []);
  eq('no script errors', w.errors, []);
  eq('no network request', w.requests, []);
  await page.close();
}

async function testBig(browser, file) {
  const url = pathToFileURL(resolve(file)).href;
  checkMarkup(file);
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const w = watch(page, url);
  const t0 = Date.now();
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('#flat tbody tr.row');
  const t = Date.now() - t0;
  const want = await page.$eval('#cg-data', s => JSON.parse(s.textContent).methods.length);
  eq('big report shows the first 300 rows', await page.$$eval('#flat tbody tr.row', trs => trs.length), 300);
  const t1 = Date.now();
  await page.click('#flat tr.more button >> text=Show all');
  const n = await page.$$eval('#flat tbody tr.row', trs => trs.length);
  const tAll = Date.now() - t1;
  eq('big report: Show all lists every method', n, want);
  await page.click('#flat th[data-key="name"] button');
  await page.click('#graph-0 g.node.method');
  eq('big report: node click highlights a row', (await page.$$('#flat tr.row.hl')).length, 1);
  // A thread left without a graph (only the busiest get one) says how to draw it.
  const nog = await page.$eval('#cg-data', s => JSON.parse(s.textContent).views
    .findIndex(v => v.g < 0 && v.m.length > 0));
  check('big report: some thread has no graph (budget)', nog > 0);
  if (nog > 0) {
    await page.selectOption('#thread', String(nog));
    const note = await page.$eval('#graph-note', p => (p.hidden ? '' : p.textContent));
    check('big report: the page says why a thread has no graph', note.includes('--thread'), note);
    check('big report: the page says which threads have graphs',
      (await page.textContent('#graph .graphbar')).includes('busiest'));
  }
  await page.selectOption('#thread', '1');
  await page.fill('#search', 'a');
  check('big report: search and thread switch work', (await page.textContent('#matched')).includes('match'));
  eq('big report: no script errors', w.errors, []);
  eq('big report: no network request', w.requests, []);
  console.log(`browser: big report ${readFileSync(file).length} bytes, loaded in ${t} ms, ${n} rows shown in ${tAll} ms`);
  await page.close();
}

async function main() {
  if (process.argv.length < 3) {
    console.error('usage: node test.mjs REPORT.html [BIG.html]');
    process.exit(2);
  }
  let browser;
  try {
    // playwright gives the browser a fresh temporary profile of its own.
    browser = await launch();
    await testReport(browser, process.argv[2]);
    if (process.argv[3]) await testBig(browser, process.argv[3]);
  } catch (e) {
    check('run', false, e && e.stack ? e.stack : String(e));
  } finally {
    if (browser) await browser.close();
  }
  done();
}

main();
