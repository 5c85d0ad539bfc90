// Bundles the report viewer (report/viewer/main.js with three.js) into one script and inlines it
// into report/viewer/page.html, giving the page rigscope fills with a run's data.
// Usage: node report/build.mjs OUT.html
import { build } from 'esbuild';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2];
if (!out) { console.error('usage: node report/build.mjs OUT.html'); process.exit(2); }

const result = await build({
  entryPoints: [join(here, 'viewer', 'main.js')],
  bundle: true, minify: true, format: 'iife', target: 'es2020', write: false, legalComments: 'none',
});
// Inside a <script> element the only text that can end it early is "</script".
const script = result.outputFiles[0].text.replace(/<\/script/gi, '<\\/script');
const page = readFileSync(join(here, 'viewer', 'page.html'), 'utf8');
const slot = '<!--RIGSCOPE_VIEWER_SCRIPT-->';
if (page.split(slot).length !== 2) throw new Error('page.html must hold the script slot once');
if (script.includes('__RIGSCOPE_REPORT_DATA__')) throw new Error('the bundle holds the data marker');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, page.replace(slot, () => '<script>' + script + '</script>'));
