// screenshot.mjs REPORT.html OUT.png - a 1200x800 screenshot of a callgraph
// HTML report in headless Chromium, for the README (docs/report.png):
//   (cd ../shared/corpus && ../../callgraph/build/callgraph --html /tmp/r.html \
//     easternHong-MethodTrace_test.trace)
//   node tests/browser/screenshot.mjs /tmp/r.html docs/report.png
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch } from './lib.mjs';

const [report, out] = process.argv.slice(2);
if (!report || !out) {
  console.error('usage: node screenshot.mjs REPORT.html OUT.png');
  process.exit(2);
}
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.goto(pathToFileURL(resolve(report)).href, { waitUntil: 'load' });
  await page.waitForSelector('#flat tbody tr.row');
  await page.screenshot({ path: out });
} finally {
  await browser.close();
}
