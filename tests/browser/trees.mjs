// trees.mjs REPORT.html FOLDED JSON - the Top Down and Bottom Up trees of a
// callgraph HTML report in headless Chromium (Debian's /usr/bin/chromium
// through playwright-core).
//
// REPORT.html, FOLDED and JSON are callgraph's --html, --folded and --json
// outputs for one real trace (run.sh uses samples/art-regular.trace.gz).  The
// numbers the page shows are checked against the other two outputs, which
// other code writes: an inclusive time of a Top Down path must equal the sum
// of the folded stacks under that path, and a Bottom Up method's self time
// the JSON's exclusive time.  Prints one line per failure and closes with
// "trees: N passed, N failed"; exits 1 when anything failed.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checks, launch, watch } from './lib.mjs';

const { check, eq, done, fail } = checks('trees');

// "12.345" (ms with three decimals) -> 12345 us; '' -> null.
const us = s => (s === '' ? null : Number(s.replace('.', '')));

// The visible rows of a tree: level, name, class and the numeric cells.
async function treeRows(page, id) {
  return page.$$eval(`#${id}-table tbody tr`, trs => trs.map(tr => ({
    level: +(tr.getAttribute('aria-level') || 0),
    name: tr.querySelector('.tname') ? tr.querySelector('.tname').textContent : tr.textContent,
    cls: tr.className,
    expanded: tr.getAttribute('aria-expanded'),
    nums: Array.from(tr.querySelectorAll('td.num'), td => td.textContent),
  })));
}

// Sum of the folded stacks whose frames start with prefix (an array).
function foldedSum(lines, prefix) {
  const p = prefix.join(';');
  let s = 0;
  for (const [stack, v] of lines)
    if (stack === p || stack.startsWith(p + ';')) s += v;
  return s;
}

async function main() {
  const [file, foldedFile, jsonFile] = process.argv.slice(2);
  if (!file || !foldedFile || !jsonFile) {
    console.error('usage: node trees.mjs REPORT.html FOLDED JSON');
    process.exit(2);
  }
  const folded = readFileSync(foldedFile, 'utf8').split('\n').filter(Boolean).map(l => {
    const i = l.lastIndexOf(' ');
    return [l.slice(0, i), Number(l.slice(i + 1))];
  });
  const J = JSON.parse(readFileSync(jsonFile, 'utf8'));
  const url = pathToFileURL(resolve(file)).href;
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const w = watch(page, url);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('#topdown-table tbody tr');

    // ---- Top Down along the main thread's hottest path ----
    const threads = await page.evaluate(() => JSON.parse(document.getElementById('cg-data').textContent).threads);
    const mainIdx = threads.findIndex(t => t[1] === 'main');
    check('the trace has a main thread', mainIdx >= 0);
    await page.selectOption('#thread', String(mainIdx + 1));
    await page.click('#topdown-hot');
    let rows = await treeRows(page, 'topdown');
    const selIdx = rows.findIndex(r => r.cls.split(' ').includes('sel'));
    check('hottest path selects a node', selIdx > 0);
    const leaf = rows[selIdx];
    check('the hottest path ends at a leaf', leaf.expanded === null, JSON.stringify(leaf));
    check('the hottest path goes deep', leaf.level >= 4, leaf.level);
    // The path from the thread to the leaf: the nearest row above with level - 1.
    const path = [selIdx];
    for (let i = selIdx - 1; i >= 0; i--)
      if (rows[i].level === rows[path[0]].level - 1) path.unshift(i);
    eq('path starts at the thread', rows[path[0]].level, 1);
    // Folded frames: thread name (with its id when names repeat), then methods.
    const dup = threads.filter(t => t[1] === threads[mainIdx][1]).length > 1;
    const frames = [dup ? `main (${threads[mainIdx][0]})` : 'main'];
    for (const i of path.slice(1)) frames.push(rows[i].name);
    // Each node on the path: its inclusive time is the folded sum under it,
    // and its exclusive time plus its children's inclusive times (the
    // "smaller calls" row included) is its inclusive time.
    let okFold = 0, okSum = 0;
    for (let d = 1; d < path.length; d++) {
      const r = rows[path[d]], want = foldedSum(folded, frames.slice(0, d + 1));
      if (us(r.nums[0]) === want) okFold++;
      else check(`incl of ${frames.slice(0, d + 1).join(';')} equals the folded stacks`, false,
        `page ${r.nums[0]}, folded ${want}`);
    }
    eq('every node on the path matches the folded stacks', okFold, path.length - 1);
    for (let d = 0; d < path.length - 1; d++) {
      const p = rows[path[d]];
      let sum = us(p.nums[2]);
      for (let i = path[d] + 1; i < rows.length && rows[i].level > p.level; i++)
        if (rows[i].level === p.level + 1) sum += us(rows[i].nums[0]);
      if (sum === us(p.nums[0])) okSum++;
      else check(`children of ${p.name} add up`, false, `excl + children ${sum}, incl ${us(p.nums[0])}`);
    }
    eq('on the path, excl + children incl = incl', okSum, path.length - 1);
    // The leaf and its siblings add up to the parent's inclusive time.
    const parent = rows[path[path.length - 2]];
    let sib = us(parent.nums[2]);
    for (let i = path[path.length - 2] + 1; i < rows.length && rows[i].level > parent.level; i++)
      if (rows[i].level === parent.level + 1) sib += us(rows[i].nums[0]);
    eq('leaf and siblings sum to the parent', sib, us(parent.nums[0]));
    eq('leaf excl = incl', us(leaf.nums[2]), us(leaf.nums[0]));

    // Keyboard: Left goes to the parent, Right back to its first child.
    await page.focus('#topdown-table');
    await page.keyboard.press('ArrowLeft');
    let selName = await page.$eval('#topdown-table tr.sel .tname', e => e.textContent);
    eq('Left selects the parent', selName, parent.name);
    await page.keyboard.press('ArrowLeft');
    rows = await treeRows(page, 'topdown');
    check('Left again collapses it', rows.every(r => r.level <= parent.level || !r.cls.includes('sel')) &&
      rows.filter(r => r.level > parent.level).length < path.length, '');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    selName = await page.$eval('#topdown-table tr.sel .tname', e => e.textContent);
    eq('Right expands and selects the first child', selName, leaf.name);

    // ---- Search expands to a match ----
    await page.click('#topdown-collapse');
    const target = frames[frames.length - 1];
    await page.fill('#topdown-find', target);
    rows = await treeRows(page, 'topdown');
    const hit = rows.find(r => r.cls.split(' ').includes('sel'));
    check('search selects a visible match', hit && hit.name === target, JSON.stringify(hit));
    check('search expanded the path', hit && hit.level >= 2, hit && hit.level);
    const found = await page.textContent('#topdown-found');
    check('search says how many', /^1 of \d+\+? matches$/.test(found), found);

    // ---- Bottom Up: the method with the most self time on all threads ----
    await page.selectOption('#thread', '0');
    rows = await treeRows(page, 'bottomup');
    const topM = rows[0];
    const methods = await page.evaluate(() => JSON.parse(document.getElementById('cg-data').textContent).methods);
    const mByName = methods.find(m => m[0] === topM.name);
    const jm = J.methods.find(m => parseInt(m.id, 16) === parseInt(mByName[2], 16));
    eq('Bottom Up self = JSON exclusive time', us(topM.nums[0]), jm.exclusive_us);
    const maxExcl = Math.max(...J.methods.map(m => m.exclusive_us));
    eq('Bottom Up starts with the most self time', us(topM.nums[0]), maxExcl);
    await page.click('#bottomup-table tbody tr:first-child .tw');
    rows = await treeRows(page, 'bottomup');
    const callers = rows.filter(r => r.level === 2);
    check('the method lists its callers', callers.length >= 1, callers.length);
    eq('callers add up to its self time', callers.reduce((a, r) => a + us(r.nums[0]), 0), us(topM.nums[0]));
    // One level further: the first caller's callers add up to it.
    await page.click('#bottomup-table tbody tr:nth-child(2) .tw');
    rows = await treeRows(page, 'bottomup');
    const c1 = rows[1], c2 = rows.filter(r => r.level === 3);
    if (c1.expanded === 'true')
      eq("a caller's callers add up", c2.reduce((a, r) => a + us(r.nums[0]), 0), us(c1.nums[0]));
    // Every method in a thread view sums to the thread's exclusive totals.
    await page.selectOption('#thread', String(mainIdx + 1));
    const buSum = await page.evaluate(() => window.cgTrees.bottomUp.top.reduce((a, n) => a + n.self, 0));
    const rootExcl = await page.evaluate(() => window.cgTrees.topDown.top[0].c.excl);
    eq('Bottom Up self times + thread own time = thread time', buSum + rootExcl, J.threads[mainIdx].inclusive_us);
    // For every method of every thread: its callers (thread starts included)
    // add up to its self time, and so do their callers one level further.
    const bad = await page.evaluate(() => {
      const out = [], w = window.cgTrees.bottomUp, sel = document.getElementById('thread');
      let roots = 0;
      for (let v = 0; v < sel.options.length; v++) {
        sel.value = String(v);
        sel.dispatchEvent(new Event('change'));
        for (const n of w.top) {
          const ks = w.kids(n), s = ks.reduce((a, c) => a + c.self, 0);
          roots += ks.filter(c => c.k < 0 && !c.rest).length;
          if (s !== n.self) out.push([v, n.k, n.self, s]);
          for (const c of ks) {
            if (c.rest || c.k < 0) continue;
            const s2 = w.kids(c).reduce((a, x) => a + x.self, 0);
            if (s2 !== c.self) out.push([v, n.k, c.k, c.self, s2]);
          }
        }
      }
      sel.value = '0';
      sel.dispatchEvent(new Event('change'));
      return { out: out.slice(0, 5), roots };
    });
    eq('in every view, callers add up to self time', bad.out, []);
    check('some self time is called from a thread start', bad.roots > 0, bad.roots);
    // Search in Bottom Up finds the method.
    await page.fill('#bottomup-find', jm.name);
    const buHit = await page.$eval('#bottomup-table tr.sel .tname', e => e.textContent);
    check('Bottom Up search selects a match', buHit.includes(jm.name), buHit);

    // Links: the profile link shows the method's row.
    await page.fill('#bottomup-find', '');
    await page.click('#bottomup-table tbody tr:first-child', { position: { x: 200, y: 5 } });
    const selected = await page.$eval('#bottomup-table tr.sel .tname', e => e.textContent);
    await page.click('#bottomup-table tbody tr.sel a.tlink[data-go=profile]');
    const hl = await page.$$eval('#flat tr.row.hl .mname', es => es.map(e => e.textContent));
    eq('profile link highlights the method row', hl, [selected]);

    // Timeline: threads with no recorded time fold into one row; a click opens it.
    await page.selectOption('#thread', '0');
    const idle = threads.filter((t, i) => J.threads[i].inclusive_us === 0).length;
    check('the trace has idle threads', idle >= 2, idle);
    eq('idle threads fold into one row', +(await page.getAttribute('#tl', 'data-folded')), idle);
    eq('the other threads have rows', +(await page.getAttribute('#tl', 'data-rows')), threads.length - idle);
    const tlBox = await page.$eval('#tl-canvas', c => { c.scrollIntoView({ block: 'end' }); const r = c.getBoundingClientRect(); return [r.x, r.y, r.height]; });
    await page.mouse.click(tlBox[0] + 60, tlBox[1] + tlBox[2] - 8);
    eq('a click on the fold shows the idle threads', +(await page.getAttribute('#tl', 'data-rows')), threads.length);
    eq('nothing folded then', +(await page.getAttribute('#tl', 'data-folded')), 0);

    // Section links leave the heading below the sticky bar visible.
    for (const id of ['topdown', 'bottomup', 'timeline']) {
      await page.click(`#cg-nav a[href="#${id}"]`);
      await page.waitForTimeout(100);
      const [barBottom, headTop] = await page.evaluate(i => [document.querySelector('.bar').getBoundingClientRect().bottom,
        document.querySelector(`#${i} h2`).getBoundingClientRect().top], id);
      check(`link to #${id} leaves its heading visible`, headTop >= barBottom && headTop < barBottom + 60,
        `heading at ${headTop}, bar ends at ${barBottom}`);
    }

    eq('no network request', w.requests, []);
    eq('no script or console error', w.errors, []);
    await page.close();
  } finally {
    await browser.close();
  }
  done();
}

main().catch(fail);
