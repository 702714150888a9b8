// `npm run l10n:export`: writes l10n/bundle.l10n.json, the English strings of src/ as
// @vscode/l10n-dev extracts them (see scripts/l10n-strings.js for the pure modules' `t(...)`).
// Translations (l10n/bundle.l10n.<lang>.json) are kept by hand; `npm run l10n:check` lists what
// they lack after an export.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { extractStrings } = require('./l10n-strings');

async function main() {
  const root = path.resolve(__dirname, '..');
  const bundle = await extractStrings(path.join(root, 'src'));
  const outDir = path.join(root, 'l10n');
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, 'bundle.l10n.json');
  fs.writeFileSync(file, `${JSON.stringify(bundle, undefined, 2)}\n`);
  console.log(`${Object.keys(bundle).length} strings written to ${path.relative(process.cwd(), file) || file}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
