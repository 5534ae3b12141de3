// window.mjs CALLGRAPH REPORT.html TRACE [FILTERED.html] - windows of the
// trace in a callgraph HTML report, in headless Chromium (Debian's
// /usr/bin/chromium through playwright-core).
//
// On REPORT.html (callgraph --html of TRACE) three windows are chosen as a
// person would: the slowest frame by a click on its bar in the frames lane,
// a window dragged along the timeline's time axis, and a second frame.  For
// each, the page's own command (callgraph --range FROM:TO TRACE) is run
// here with --json, and the page must agree with it: every row of the
// Profile table (inclusive, exclusive and calls on every clock shown), the
// Top Down tree's first level under each thread (its root edges: calls and
// inclusive time), the window's total and the bar's label.  "Back to the
// whole trace" must give back the whole-trace table and Top Down rows
// exactly.  Then frames' windows as the page computes them (methods on both
// clocks, calls, recursive calls, total) against --range frame:N: all of
// them on a trace with at most 30 frames, else the slowest and every 25th.  FILTERED.html, a report the page cannot replay windows of,
// must show the --range command instead of numbers when a frame is
// clicked.  Closes with "windows: N passed, N failed"; exits 1 on failure.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checks, launch, watch } from './lib.mjs';

const { check, eq, done, fail } = checks('windows');

// "12.345" (ms with three decimals) -> 12345 us.
const us = s => Number(s.replace('.', ''));

// The Profile table in full (every row shown): per row its method's id (a
// number), and per column key and clock the text of its cell.
async function table(page) {
  for (;;) {
    const more = await page.$('#flat tbody button.more:last-of-type');
    if (!more) break;
    await more.click();
  }
  return page.evaluate(() => {
    const D = JSON.parse(document.getElementById('cg-data').textContent);
    const heads = Array.from(document.querySelectorAll('#flat thead th'), th =>
      (th.getAttribute('data-key') || '') + ':' + (th.getAttribute('data-clock') || ''));
    return Array.from(document.querySelectorAll('#flat tbody tr.row'), tr => {
      const cells = {};
      tr.querySelectorAll('td').forEach((td, i) => { cells[heads[i]] = td.textContent; });
      return { id: parseInt(D.methods[+tr.getAttribute('data-k')][2], 16), cells };
    });
  });
}

// The Top Down rows shown, as text.
const topDownText = page => page.$$eval('#topdown-table tbody tr', trs => trs.map(tr => tr.textContent));

// Top Down with every thread's root open, as the page shows it: per
// thread id, its first level { method id: [incl text, calls text] }.
async function topDownFirstLevel(page) {
  return page.evaluate(() => {
    const D = JSON.parse(document.getElementById('cg-data').textContent);
    const body = document.querySelector('#topdown-table tbody');
    const rows = () => Array.from(body.querySelectorAll('tr'));
    for (let guard = 0; guard < 1000; guard++) {
      const closed = rows().find(tr => tr.getAttribute('aria-level') === '1' &&
        tr.getAttribute('aria-expanded') === 'false');
      const more = rows().find(tr => tr.classList.contains('more') && tr.querySelector('button.showall'));
      if (closed) closed.querySelector('.tw').click();
      else if (more) more.querySelector('button.showall').click();
      else break;
    }
    const out = {};
    let tid = null;
    rows().forEach(tr => {
      const level = tr.getAttribute('aria-level'), k = +tr.getAttribute('data-k');
      const nums = Array.from(tr.querySelectorAll('td.num'), td => td.textContent);
      if (level === '1') {
        const m = tr.textContent.match(/\(thread (\d+)\)/);
        tid = m ? m[1] : null;
        if (tid) out[tid] = {};
      } else if (level === '2' && tid && k >= 0) {
        out[tid][parseInt(D.methods[k][2], 16)] = [nums[0], nums[4]];
      }
    });
    return out;
  });
}

function rangeJson(cg, trace, range) {
  const r = spawnSync(cg, ['-q', '--range', range, '--json', '-', trace], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`callgraph --range ${range}: exit ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

// The page against callgraph --range: the table, Top Down, the total.
async function compare(page, cg, trace, what) {
  const cmd = await page.$eval('#win-cmd', e => e.textContent);
  const m = cmd.match(/^callgraph --range (\S+) (.+)$/);
  check(`${what}: the command`, !!m && m[2] === trace, cmd);
  if (!m) return;
  const J = rangeJson(cg, trace, m[1]);
  const dual = J.trace.clocks.length === 2;
  const want = new Map(J.methods.map(x => [parseInt(x.id, 16), x]));
  const rows = await table(page);
  eq(`${what}: methods`, rows.length, J.methods.length);
  let bad = 0, first = '';
  for (const r of rows) {
    const x = want.get(r.id);
    const got = [], exp = [];
    if (!x) { bad++; first = first || `method ${r.id} not in --range`; continue; }
    for (const clock of dual ? ['cpu', 'wall'] : ['']) {
      const p = clock ? clock + '_' : '';
      got.push(us(r.cells[`incl:${clock}`]), us(r.cells[`excl:${clock}`]));
      exp.push(x[p + 'inclusive_us'], x[p + 'exclusive_us']);
    }
    got.push(r.cells['calls:']);
    exp.push(x.calls + '+' + x.recursive_calls);
    if (JSON.stringify(got) !== JSON.stringify(exp)) {
      bad++;
      first = first || `method ${r.id}: page ${JSON.stringify(got)}, --range ${JSON.stringify(exp)}`;
    }
  }
  check(`${what}: every Profile row equals --range --json (${rows.length} rows)`, bad === 0, `${bad} differ; ${first}`);
  // Top Down: each thread's first level is its root edges.
  const td = await topDownFirstLevel(page);
  const roots = {};
  for (const e of J.edges) {
    if (!e.caller.startsWith('thread:')) continue;
    const tid = e.caller.slice(7);
    (roots[tid] = roots[tid] || []).push(e);
  }
  let tdBad = 0, tdFirst = '', threads = 0;
  for (const tid of Object.keys(td)) {
    threads++;
    const got = {}, exp = {};
    for (const [id, v] of Object.entries(td[tid])) got[id] = [us(v[0]), Number(v[1])];
    for (const e of roots[tid] || []) exp[parseInt(e.callee, 16)] = [e.inclusive_us, e.calls];
    if (JSON.stringify(Object.entries(got).sort()) !== JSON.stringify(Object.entries(exp).sort())) {
      tdBad++;
      tdFirst = tdFirst || `thread ${tid}: page ${JSON.stringify(got)}, --range ${JSON.stringify(exp)}`;
    }
  }
  check(`${what}: Top Down's first level under each of ${threads} threads equals the root edges`,
    tdBad === 0 && threads > 0, tdFirst || 'no thread');
  const total = await page.$eval('#matched', e => e.textContent);
  const t = total.match(/total ([0-9.]+) ms/);
  eq(`${what}: the total`, t && us(t[1]), J.total_us);
  return J;
}

async function main() {
  const [cg, file, trace, filtered] = process.argv.slice(2);
  if (!cg || !file || !trace) {
    console.error('usage: node window.mjs CALLGRAPH REPORT.html TRACE [FILTERED.html]');
    process.exit(2);
  }
  const url = pathToFileURL(resolve(file)).href;
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const w = watch(page, url);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('#topdown-table tbody tr');
    const wholeTable = JSON.stringify(await table(page));
    const wholeTd = await topDownText(page);
    eq('the bar says the whole trace', await page.$eval('#win-label', e => e.textContent), 'Whole trace');
    const C = await page.evaluate(() => ({ n: window.cgWin.frames.length, exact: window.cgWin.exact,
      slow: window.cgWin.slowest.map(f => f.n) }));
    check('the page replays windows', C.exact, 'cgWin.exact is false');
    check('frames in the lane', C.n > 0 && C.slow.length > 0, JSON.stringify(C));

    // 1. The slowest frame, clicked in the frames lane.
    const clickFrame = async n => {
      await page.click('#tl-all');
      await page.$eval('#timeline', e => e.scrollIntoView());
      const bars = await page.evaluate(() => window.cgFrameBars());
      const b = bars.find(x => x.n === n);
      check(`frame ${n} has a bar in the lane`, !!b, `${bars.length} bars`);
      if (!b) return false;
      const box = await page.$eval('#tl-canvas', c => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top }; });
      await page.mouse.click(box.x + (b.x0 + b.x1) / 2, box.y + b.y);
      return true;
    };
    if (await clickFrame(C.slow[0])) {
      const label = await page.$eval('#win-label', e => e.textContent);
      const f = await page.evaluate(n => window.cgWin.frames[n - 1], C.slow[0]);
      const J = await compare(page, cg, trace, `slowest frame ${C.slow[0]}`);
      const r = J && J.trace.range;
      check('the label names the frame and its window', r && label ===
        `Window ${r.from_ms.toFixed(3)}\u2013${r.to_ms.toFixed(3)} ms (frame ${C.slow[0]}, ${await page.evaluate(p => window.cgWin.threadName(p), f.pi)})`,
      label);
      // --range frame:N is the same window.
      const Jf = rangeJson(cg, trace, 'frame:' + C.slow[0]);
      eq('the window is --range frame:N\'s', [Jf.trace.range.from_ms, Jf.trace.range.to_ms], r && [r.from_ms, r.to_ms]);
      // The line under the command: the frame's thread's top method by self
      // time, as the text profile's frames section (frames.c) finds it.
      const Fj = spawnSync(cg, ['-q', '--frames', '--json', '-', trace], { encoding: 'utf8', maxBuffer: 1 << 28 });
      const top = JSON.parse(Fj.stdout).frames.slowest.find(x => x.frame === C.slow[0]).methods[0];
      const info = await page.$eval('#win-info .win-top', e => e.textContent);
      const want = `most self time: ${top.name.replace(/\//g, '.')} ${(top.wall_us / 1000).toFixed(3)} ms`;
      check('the frame\'s top method by self time is named under the command', info.includes(want), `${info} / ${want}`);
    }

    // 2. Back to the whole trace: the same table and tree rows, exactly.
    await page.click('#win-reset');
    eq('reset: the bar says the whole trace', await page.$eval('#win-label', e => e.textContent), 'Whole trace');
    check('reset: the Profile table is the whole trace\'s again', JSON.stringify(await table(page)) === wholeTable);
    eq('reset: the Top Down rows are the whole trace\'s again', await topDownText(page), wholeTd);
    check('reset: the control is hidden', await page.$eval('#win-reset', e => e.hidden));

    // 3. A window dragged along the time axis, from 30 % to 45 % of the plot.
    await page.click('#tl-all');
    await page.$eval('#timeline', e => e.scrollIntoView());
    const cv = await page.$eval('#tl-canvas', c => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width }; });
    const x0 = cv.x + 170 + (cv.w - 178) * 0.30, x1 = cv.x + 170 + (cv.w - 178) * 0.45;
    await page.mouse.move(x0, cv.y + 8);
    await page.mouse.down();
    await page.mouse.move((x0 + x1) / 2, cv.y + 8, { steps: 3 });
    await page.mouse.move(x1, cv.y + 8, { steps: 3 });
    await page.mouse.up();
    check('a drag on the axis chooses a window', /^Window [0-9.]+\u2013[0-9.]+ ms$/.test(
      await page.$eval('#win-label', e => e.textContent)), await page.$eval('#win-label', e => e.textContent));
    await compare(page, cg, trace, 'dragged window');

    // 4. Another frame (the third slowest, or the first), from a window.
    await clickFrame(C.slow[2] || 1);
    await compare(page, cg, trace, `frame ${C.slow[2] || 1}`);
    await page.click('#win-reset');
    check('reset again: the whole trace\'s table', JSON.stringify(await table(page)) === wholeTable);

    // 5. Frames' windows as the page computes them (the all-threads view its
    // table shows) against --range frame:N: every frame of a trace with at
    // most 30, else the slowest and every 25th.
    const some = [];
    for (let n = 1; n <= C.n; n++) if (C.n <= 30 || n % 25 === 1 || C.slow.includes(n)) some.push(n);
    const views = await page.evaluate(ns => {
      const D = JSON.parse(document.getElementById('cg-data').textContent), st = D.other ? 7 : 5;
      return ns.map(k => {
        const f = window.cgWin.frames[k - 1], v = window.cgWin.view(f.start, f.start + f.wall), out = {};
        for (let i = 0; i < v.m.length; i += st) out[parseInt(D.methods[v.m[i]][2], 16)] = v.m.slice(i + 1, i + st);
        return { total: v.total, ototal: v.ototal, m: out };
      });
    }, some);
    let fbad = 0, ffirst = '';
    for (const [i, n] of some.entries()) {
      const J = rangeJson(cg, trace, 'frame:' + n), got = views[i];
      const dual = J.trace.clocks.length === 2, cpuFirst = J.trace.clock_used === 'cpu';
      const exp = {};
      for (const x of J.methods) {
        const a = [x.inclusive_us, x.exclusive_us, x.calls, x.recursive_calls];
        if (dual) a.push(...(cpuFirst ? [x.wall_inclusive_us, x.wall_exclusive_us] : [x.cpu_inclusive_us, x.cpu_exclusive_us]));
        exp[parseInt(x.id, 16)] = a;
      }
      const ok = JSON.stringify(Object.entries(got.m).sort()) === JSON.stringify(Object.entries(exp).sort()) &&
        got.total === J.total_us && (!dual || got.ototal === (cpuFirst ? J.wall_total_us : J.cpu_total_us));
      if (!ok) { fbad++; ffirst = ffirst || `frame ${n}`; }
    }
    check(`${some.length} of ${C.n} frames' windows equal --range frame:N`, fbad === 0, `${fbad} differ, first ${ffirst}`);

    eq('no network requests', w.requests, []);
    eq('no dialogs', w.dialogs, []);
    eq('no script errors', w.errors, []);

    if (filtered) {
      const u2 = pathToFileURL(resolve(filtered)).href;
      const w2 = watch(page, u2);
      await page.goto(u2, { waitUntil: 'load' });
      await page.waitForSelector('#flat tbody tr.row');
      const before = JSON.stringify(await table(page));
      const why = await page.evaluate(() => window.cgWin.why);
      check('a filtered report says why it cannot compute windows', /--focus and --hide/.test(why), why);
      check('its note says so', /cannot compute windows/.test(await page.$eval('#win-note', e => e.textContent)));
      await page.evaluate(() => window.cgWin.selectFrame(1));
      const info = await page.$eval('#win-info', e => e.textContent);
      check('a frame there shows the --range command', /callgraph --range [0-9.]+:[0-9.]+ /.test(info), info);
      check('and no window numbers', JSON.stringify(await table(page)) === before);
      eq('no script errors (filtered)', w2.errors, []);
    }
  } finally {
    await browser.close();
  }
  done();
}

main().catch(fail);
