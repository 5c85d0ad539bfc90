// Opens a rigscope report in headless Chromium (Debian's, driven by puppeteer-core) and checks
// the page as a user would see it. Prints one line per failed check; exit 1 if any failed.
// Usage: node report/browser_check.mjs PAGE.html [--compressed MESH:VERTEX:FRAME:T] [--positions DEFORM.csv]
//                                     [--measure KIND] [--screenshot OUT.png]
//   --compressed: a vertex, frame number and T where T peaks (the test takes them from `rigscope
//   tension`'s JSON, not from the page): the page's T there must match within its stated
//   precision, the view at that frame must differ from the rest mesh, and the pixels at the
//   vertex must be red-dominant.
//   --positions: `rigscope deform --frames N` output of one frame; the page's drawn mesh at that
//   frame (skinned in the page, or decoded) must match it within the page's quantization.
//   --measure: the run's --measure (edge, area, principal): the page must say which measure it
//   shows, and for principal show lambda (= 1 / the stored T of the row's side) in the table.
//   --clips A,B: the page's clip menu lists exactly these clips, #clip=NAME and the menu show each.
//   --marks faces|regions: a check page with --max-intersections / --max-volume-loss: its
//   "worst frame" button shows that verdict's worst frame, where the crossing faces (faces) or the
//   regions past the volume limit (regions) are drawn in their stated colour, and its toggle
//   takes them off (no pixel of that colour left) and on again; the legend names them.
//   --screenshot: only writes the page with its first worst-vertex row clicked
//   (scripts/report_screenshot.sh).
import puppeteer from 'puppeteer-core';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const page_path = args[0];
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
if (!page_path) { console.error('usage: browser_check.mjs PAGE.html [--compressed MESH:VERTEX:FRAME] [--screenshot OUT.png]'); process.exit(2); }
const url = pathToFileURL(resolve(page_path)).href;

const failures = [];
const fail = (msg) => { failures.push(msg); console.log('FAIL: ' + msg); };
const profile = mkdtempSync(join(tmpdir(), 'rigscope-chromium-'));
const browser = await puppeteer.launch({
  executablePath: process.env.RIGSCOPE_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  userDataDir: profile,
  protocolTimeout: 0,  // no timed waits: a slow machine only takes longer
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync',
         // WebGL without a GPU: SwiftShader through ANGLE.
         '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
         `--user-data-dir=${profile}`],
});
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(0);
  await page.setViewport({ width: 1280, height: 900 });
  const errors = [], requests = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => {
    const u = r.url();
    if (!(u.split('#')[0] === url || u.startsWith('data:') || u.startsWith('blob:'))) requests.push(u);
  });

  // The viewer's script runs before the load event, so the page is ready when goto returns.
  // It is paused at once: a software-rendered frame of a large mesh takes long, and playback
  // would hold the page's thread between every step of the test. Returns whether it was playing.
  const open = async (hash) => {
    await page.goto(url + hash, { waitUntil: 'load' });
    return await page.evaluate(() => {
      const r = window.rigscopeReport;
      if (!r || !r.ready) return null;
      const playing = r.playing;
      r.pause();
      return playing;
    });
  };
  const played = await open('');
  if (played === null) fail('the viewer did not start');
  if (opt('--screenshot')) {
    // As a user would: the first row clicked (its worst frame, the vertex marked).
    if (await page.$('#worst tbody tr')) await page.click('#worst tbody tr:nth-child(1)');
    writeFileSync(opt('--screenshot'), await page.screenshot({ fullPage: true }));
  } else {
    const header = await page.$eval('header', (h) => h.textContent);
    for (const want of ['rigscope ', 'input ', 'clip ', 'frames', 'falloff', 'stretch area', 'compress area'])
      if (!header.includes(want)) fail(`the header does not state "${want.trim()}"`);
    if (!played) fail('the page does not play on opening');
    const measure = opt('--measure');
    if (measure) {
      const m = await page.evaluate(() => {
        const r = window.rigscopeReport, data = JSON.parse(document.getElementById('rigscope-data').textContent);
        return { kind: r.measure.kind, text: r.measureText(), table: r.tableValues(), ts: data.worst.map((w) => w.t) };
      });
      if (m.kind !== measure) fail(`the page's measure is ${m.kind}, the run's ${measure}`);
      if (!m.text.startsWith(`Measure: ${measure}`)) fail(`the header does not name the measure: "${m.text}"`);
      const lambda = measure === 'principal';
      if (m.table[0] !== (lambda ? 'λ' : 'T')) fail(`the table's value column is "${m.table[0]}"`);
      // Printed to 5 significant digits.
      m.ts.forEach((t, i) => {
        const want = lambda ? 1 / t : t;
        if (!(Math.abs(Number(m.table[i + 1]) / want - 1) <= 1e-4)) fail(`table row ${i + 1} shows ${m.table[i + 1]}, expected ${want}`);
      });
    }

    // --clips A,B: a page of several clips lists them on its menu, opens on the one #clip=NAME
    // names, and the menu switches the page to the clip chosen (its header says which).
    const clips = opt('--clips');
    if (clips) {
      const want = clips.split(',');
      const state = async () => page.evaluate(() => ({
        clips: window.rigscopeReport.clips, clip: window.rigscopeReport.clip,
        menu: [...document.querySelectorAll('#clip option')].map((o) => o.textContent),
        hidden: document.getElementById('clips').hidden, meta: document.getElementById('meta').textContent,
      }));
      let st = await state();
      if (st.hidden) fail('the clip menu is hidden on a page of several clips');
      if (JSON.stringify(st.clips) !== JSON.stringify(want)) fail(`the page holds clips ${st.clips}, expected ${want}`);
      if (!want.every((c, i) => (st.menu[i] || '').startsWith(c))) fail(`the menu lists ${st.menu}`);
      for (const c of want) {
        await page.goto('about:blank');  // a page opened afresh on report.html#clip=NAME
        await open(`#clip=${encodeURIComponent(c)}`);
        st = await state();
        if (st.clip !== c || !st.meta.includes(`clip ${c}`)) fail(`#clip=${c} shows clip ${st.clip} (header: ${st.meta})`);
      }
      // The menu, as a user picks from it: the page reloads on the clip chosen.
      // (A broken menu never shows it: the wait then ends with the test's own time limit.)
      await page.select('#clip', '0');
      await page.waitForFunction((c) => window.rigscopeReport && window.rigscopeReport.clip === c &&
                                   document.getElementById('clip').value === '0', { polling: 100, timeout: 0 }, want[0]);
      st = await state();
      if (st.clip !== want[0]) fail(`choosing ${want[0]} on the menu shows clip ${st.clip}`);
    }

    // Pixels of the 3D view from a screenshot, decoded by the browser itself.
    const shot = async () => {
      const el = await page.$('#canvas');
      return await el.screenshot({ encoding: 'base64' });
    };
    const pixel = (png, x, y) => page.evaluate(async (png, x, y) => {
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      const img = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const c = new OffscreenCanvas(img.width, img.height), g = c.getContext('2d');
      g.drawImage(img, 0, 0);
      // The mean of the mesh's pixels in a 5x5 window: a vertex on the mesh's border (an open
      // edge, a seam between parts) has background on one side.
      const bg = window.rigscopeReport.background, d = g.getImageData(Math.round(x) - 2, Math.round(y) - 2, 5, 5).data;
      const s = [0, 0, 0];
      let n = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) <= 6) continue;
        for (let k = 0; k < 3; ++k) s[k] += d[i + k];
        ++n;
      }
      return n ? s.map((v) => v / n) : [0, 0, 0];
    }, png, x, y);

    // --marks: as a user, the worst-frame button, the colour on the canvas, the toggle.
    const marks = opt('--marks');
    if (marks) {
      const ids = marks === 'faces' ? { item: '#mark-faces-item', box: '#mark-faces', worst: '#worst-intersection', frame: 'worstIntersectionFrame' }
                                    : { item: '#mark-regions-item', box: '#mark-regions', worst: '#worst-volume', frame: 'worstVolumeFrame' };
      const info = await page.evaluate((key, f, kind) => {
        const r = window.rigscopeReport;
        const item = document.querySelector(key);
        return { worst: r[f], colour: r.markColours[kind], shown: r.shownFrames,
                 visible: !document.getElementById('marks').hidden && !!item && !item.hidden, legend: item ? item.textContent : '' };
      }, ids.item, ids.frame, marks);
      if (!info.visible) fail(`the marks' legend (${ids.item}) is not shown`);
      if (!(marks === 'faces' ? /cross/.test(info.legend) : /volume/.test(info.legend))) fail(`the legend says "${info.legend.trim()}"`);
      if (info.worst === null || info.worst === undefined) fail(`the page has no worst frame for ${marks}`);
      await page.click(ids.worst);
      const want = info.shown.reduce((a, b) => (Math.abs(b - info.worst) < Math.abs(a - info.worst) ? b : a));
      const at = await page.evaluate(() => window.rigscopeReport.frameIndex);
      if (at !== want) fail(`the ${marks} "worst frame" button shows frame index ${at}, expected ${want}`);
      // Pixels of the stated colour (within 12 per channel: antialiased edges aside) on the canvas.
      const count = async () => page.evaluate(async (png, rgb) => {
        const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
        const img = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const c = new OffscreenCanvas(img.width, img.height), g = c.getContext('2d');
        g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, img.width, img.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4)
          if (Math.abs(d[i] - rgb[0]) <= 12 && Math.abs(d[i + 1] - rgb[1]) <= 12 && Math.abs(d[i + 2] - rgb[2]) <= 12) ++n;
        return n;
      }, await shot(), info.colour);
      const on = await count();
      await page.click(ids.box);
      const off = await count();
      await page.click(ids.box);
      const again = await count();
      if (!(on >= 20)) fail(`${marks} marks: ${on} pixels of rgb(${info.colour}) at the worst frame`);
      if (off !== 0) fail(`${marks} marks toggled off: still ${off} pixels of rgb(${info.colour})`);
      if (again !== on) fail(`${marks} marks toggled on again: ${again} pixels, ${on} before`);
      console.log(`${marks} marks: ${on} pixels of rgb(${info.colour}) at frame index ${at}, ${off} with the toggle off`);
    }

    const compressed = opt('--compressed');
    if (compressed) {
      const [mesh, vertex, frame, t] = compressed.split(':').map(Number);
      const playing = await open(`#frame=${frame}`);
      const n = await page.evaluate(() => window.rigscopeReport.frameNumber);
      if (n !== frame) fail(`#frame=${frame} opened frame ${n}`);
      if (playing) fail(`#frame=${frame} did not open paused`);
      // The page's T is 8 or 16-bit steps of log T: within the relative error it states (plus
      // float rounding of the values rigscope printed).
      const got = await page.evaluate((m, v) => {
        const r = window.rigscopeReport;
        return { t: r.tAt(m, v, r.shownFrames.indexOf(r.frameIndex)), err: r.tEncoding.relative_error };
      }, mesh, vertex);
      if (!(Math.abs(got.t / t - 1) <= got.err + 1e-6)) fail(`T at mesh ${mesh} vertex ${vertex} frame ${frame} is ${got.t} in the page, ${t} from rigscope tension`);
      // Look at the vertex along its normal, so no other part of the mesh hides it.
      const at = await page.evaluate((m, v) => window.rigscopeReport.focus(m, v), mesh, vertex);
      const deformed = await shot();
      await page.evaluate(() => window.rigscopeReport.setRest(true));
      const rest = await shot();
      await page.evaluate(() => window.rigscopeReport.setRest(false));
      if (deformed === rest) fail(`the view at frame ${frame} is the same as at rest`);
      const [r, g, b] = await pixel(deformed, at.x, at.y);
      if (!(r > 1.25 * g && r > 1.25 * b))
        fail(`pixel at mesh ${mesh} vertex ${vertex} (frame ${frame}, x ${at.x.toFixed(1)} y ${at.y.toFixed(1)}) is rgb(${r.toFixed(0)},${g.toFixed(0)},${b.toFixed(0)}), not red-dominant`);
      const [hr, hg, hb] = await (async () => {
        await page.evaluate(() => window.rigscopeReport.setMode('heat'));
        const heat = await shot();
        await page.evaluate(() => window.rigscopeReport.setMode('maps'));
        return pixel(heat, at.x, at.y);
      })();
      if (!(hr > 1.08 * hb && hr > 1.08 * hg)) fail(`heat map pixel at the compressed vertex is rgb(${hr.toFixed(0)},${hg.toFixed(0)},${hb.toFixed(0)}), not on the red side`);
    }

    const positions = opt('--positions');
    if (positions) {
      const rows = readFileSync(positions, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
      const frame = Number(rows[0][0]);
      await open(`#frame=${frame}`);
      const d = await page.evaluate(() => {
        const data = JSON.parse(document.getElementById('rigscope-data').textContent);
        return data.meshes.map((m, i) => ({ name: m.name, step: m.step, p: window.rigscopeReport.positions(i) }));
      });
      for (const [mi, m] of d.entries()) {
        // Quantization of the stored positions (half a 16-bit step per axis), carried through
        // skinning (joint matrices of cesium_man and bend_cylinder scale by at most ~1), plus
        // float rounding of rigscope's own output.
        const tol = 1.5 * Math.max(...m.step) + 1e-5;
        let worst = 0, count = 0;
        for (const r of rows) {
          if (r[2] !== m.name) continue;
          const v = Number(r[3]);
          for (let k = 0; k < 3; ++k) worst = Math.max(worst, Math.abs(m.p[3 * v + k] - Number(r[4 + k])));
          ++count;
        }
        if (count * 3 !== m.p.length) fail(`mesh ${m.name}: ${count} rows in ${positions}, ${m.p.length / 3} vertices in the page`);
        if (!(worst <= tol)) fail(`mesh ${m.name} at frame ${frame}: positions differ from rigscope deform by ${worst} (> ${tol})`);
        console.log(`mesh ${m.name} frame ${frame}: largest position difference ${worst.toExponential(2)} (tolerance ${tol.toExponential(2)})`);
      }
    }

    // Clicking a row whose worst frame is not the one shown moves to that frame.
    const rows = await page.evaluate(() => window.rigscopeReport.worstFrames);
    if (rows.length === 0) fail('the worst-vertex table is empty');
    if (rows.length) {
      // From a shown frame other than the first row's, so the click has to move.
      const { want, from } = await page.evaluate((fi) => {
        const s = window.rigscopeReport.shownFrames;
        const want = s.reduce((a, b) => (Math.abs(b - fi) < Math.abs(a - fi) ? b : a));
        return { want, from: want === s[0] ? s[s.length - 1] : s[0] };
      }, rows[0]);
      if (from === want) fail('the page shows a single frame: no row can change it');
      await page.evaluate((f) => window.rigscopeReport.setFrame(f), from);
      await page.click('#worst tbody tr:nth-child(1)');
      const after = await page.evaluate(() => ({ f: window.rigscopeReport.frameIndex, marked: window.rigscopeReport.marked }));
      if (after.f !== want) fail(`clicking the first row showed frame index ${after.f}, expected ${want} (from ${from})`);
      if (!after.marked) fail('clicking the first row did not mark its vertex');
    }
    const plotted = await page.evaluate(() => {
      const c = document.getElementById('plot'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let k = 0; k < d.length; k += 4) if (d[k + 3] > 0) ++n;
      return n;
    });
    if (plotted === 0) fail('the T-over-time plot is blank');
  }
  if (errors.length) fail('console errors: ' + errors.join(' | '));
  if (requests.length) fail('network requests: ' + requests.join(' '));
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(failures.length ? 1 : 0);
