// Validates glTF / GLB files with the Khronos glTF validator: prints, per file, the counts of
// errors and warnings and each error and warning with its JSON pointer. Exit 1 if any file has an
// error (or cannot be validated at all), 2 on bad usage.
//   node validate.mjs [--max N] [--all] FILE...
// --all also prints infos and hints.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import validator from 'gltf-validator';

const args = process.argv.slice(2);
let maxShown = 20;  // per severity and file: enough to see a pattern, not a wall of text
let shownSeverities = [0, 1];
const files = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--max' && i + 1 < args.length) maxShown = Number(args[++i]);
  else if (args[i] === '--all') shownSeverities = [0, 1, 2, 3];
  else if (args[i] === '-h' || args[i] === '--help') {
    console.log('usage: node validate.mjs [--max N] [--all] FILE...');
    process.exit(0);
  } else files.push(args[i]);
}
if (files.length === 0) {
  console.error('usage: node validate.mjs [--max N] [--all] FILE...');
  process.exit(2);
}

const severityName = ['error', 'warning', 'info', 'hint'];

async function validate(file) {
  const bytes = new Uint8Array(await readFile(file));
  return validator.validateBytes(bytes, {
    uri: path.basename(file),
    writeTimestamp: false,
    maxIssues: 0,  // count every issue; printing is capped below
    // .gltf files name their .bin and images relative to themselves.
    externalResourceFunction: (uri) =>
      readFile(path.resolve(path.dirname(file), decodeURIComponent(uri))).then((d) => new Uint8Array(d)),
  });
}

let failed = false;
for (const file of files) {
  let report;
  try {
    report = await validate(file);
  } catch (e) {
    console.log(`${file}: cannot validate: ${e && e.message ? e.message : e}`);
    failed = true;
    continue;
  }
  const issues = report.issues;
  console.log(`${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ` +
              `${issues.numInfos} infos, ${issues.numHints} hints`);
  for (const severity of shownSeverities) {
    const list = issues.messages.filter((m) => m.severity === severity);
    for (const m of list.slice(0, maxShown))
      console.log(`  ${severityName[severity]} ${m.code}: ${m.message}${m.pointer ? ` (${m.pointer})` : ''}`);
    if (list.length > maxShown) console.log(`  ... and ${list.length - maxShown} more ${severityName[severity]}s`);
  }
  if (issues.numErrors > 0) failed = true;
}
process.exit(failed ? 1 : 0);
