// screenshot.mjs REPORT.html OUT.png [slowest-frame] - a 1200x800 screenshot
// of a callgraph HTML report in headless Chromium, for the README
// (docs/report.png):
//   (cd ../shared/corpus && ../../callgraph/build/callgraph --html /tmp/r.html \
//     easternHong-MethodTrace_test.trace)
//   node tests/browser/screenshot.mjs /tmp/r.html docs/report.png
// With slowest-frame, the page shows its slowest frame's window, scrolled to
// the timeline (docs/window.png):
//   build/callgraph --html /tmp/w.html samples/streaming.trace
//   node tests/browser/screenshot.mjs /tmp/w.html docs/window.png slowest-frame
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch } from './lib.mjs';

const [report, out, what] = process.argv.slice(2);
if (!report || !out || (what && what !== 'slowest-frame')) {
  console.error('usage: node screenshot.mjs REPORT.html OUT.png [slowest-frame]');
  process.exit(2);
}
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.goto(pathToFileURL(resolve(report)).href, { waitUntil: 'load' });
  await page.waitForSelector('#flat tbody tr.row');
  if (what) {
    await page.evaluate(() => window.cgWin.selectFrame(window.cgWin.slowest[0].n));
    await page.evaluate(() => {
      const bar = document.querySelector('.bar');
      window.scrollTo(0, document.getElementById('win-note').getBoundingClientRect().top + window.scrollY -
        bar.offsetHeight - 8);
    });
  }
  await page.screenshot({ path: out });
} finally {
  await browser.close();
}
