// mapping.mjs REPORT.html - the HTML report of a minified trace read with
// its mapping file in headless Chromium.  REPORT.html is the report of the
// trace tracegen makes of tests/golden/mapping-forms-text/desc, read with
// --mapping tests/data/mapping/forms.txt (run.sh does that).  The rows show
// the originals (worked out by hand in tests/golden/mapping-forms-json/README)
// and each name's tooltip the descriptor, the obfuscated name the trace
// wrote and the mapping's note.  Closes with "mapping: N passed, N failed".
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checks, launch } from './lib.mjs';

const { check, eq, done, fail } = checks('mapping');

(async () => {
  const browser = await launch();
  const page = await browser.newPage();
  await page.goto(pathToFileURL(resolve(process.argv[2])).href);
  const tip = id => page.getAttribute(`#row-m${id} .mname`, 'title');
  const name = id => page.textContent(`#row-m${id} .mname`);
  eq('overload by descriptor: the original name', await name('0x8'), 'com.example.app.Player.play');
  eq('its tooltip: descriptor and obfuscated name', await tip('0x8'),
    '(Lcom/example/app/Track;)V\nobfuscated: a/a.a(La/b;)V');
  eq('ambiguous: both originals in the name', await name('0x10'),
    'com.example.app.Player.stop | com.example.app.Player.stopNow');
  eq('ambiguous: the candidates in the tooltip', await tip('0x10'),
    '()V\nobfuscated: a/a.b()V\nambiguous: com.example.app.Player.stop()V | com.example.app.Player.stopNow()V');
  eq('inline chain: the inlined frame in the tooltip', await tip('0x14'),
    '()J\nobfuscated: a/a.c()J\ninlined: com.example.app.Clock.now()I');
  eq('kept method: the descriptor only', await tip('0x28'), '(Landroid/os/Bundle;)V');
  check('no row under an obfuscated class', !(await page.$$eval('#flat tbody tr.row .mname',
    ns => ns.some(n => /^a\.[abc]\./.test(n.textContent)))));
  await browser.close();
  done();
})().catch(fail);
