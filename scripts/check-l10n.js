// `npm run l10n:check` (run by .ci/run): fails with a list when the translations are incomplete.
//  (a) a string translated in src/ (vscode.l10n.t, or a pure module's `t`) is missing from
//      l10n/bundle.l10n.json, or the bundle holds one src/ no longer has: run `npm run l10n:export`;
//  (b) a key of bundle.l10n.json is missing from a bundle.l10n.<lang>.json (or is not a string);
//  (c) a translation's placeholders `{0}`, `{1}`..., codicons `$(name)` or command links
//      `(command:id)` differ from its English source;
//  (d) a `%key%` used in package.json is missing from package.nls.json or a package.nls.<lang>.json;
//  (e) a key of package.nls.json is missing from a package.nls.<lang>.json (so a %key% of (d)
//      that package.nls.json has is reported here for each language).
//  (f) a walkthrough step's markdown page (`media.markdown` in package.json) has no
//      `<page>.nls.<lang>.md` beside it (VS Code picks that file for the display language).
// Keys a translation holds that the English no longer has are listed too. The languages are
// German (always) and any other that has a bundle.l10n.<lang>.json or package.nls.<lang>.json.
// `--root <dir>` checks another tree laid out like this one (the unit tests use fixtures).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { extractStrings, messageOf } = require('./l10n-strings');

const REQUIRED_LANGUAGES = ['de'];

function readJson(file, problems) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    problems.push(`${file}: cannot be read (${err instanceof Error ? err.message.split('\n')[0] : err})`);
    return undefined;
  }
}

/** What must survive translation unchanged, as a sorted list. */
function tokens(text) {
  const found = text.match(/\{\d+\}|\$\([\w~-]+\)|\(command:[^)\s]+\)/g) ?? [];
  return [...new Set(found)].sort();
}

function languagesIn(root) {
  const langs = new Set(REQUIRED_LANGUAGES);
  const scan = (dir, pattern) => {
    if (!fs.existsSync(dir)) return;
    for (const name of fs.readdirSync(dir)) {
      const m = pattern.exec(name);
      if (m) langs.add(m[1]);
    }
  };
  scan(path.join(root, 'l10n'), /^bundle\.l10n\.([\w-]+)\.json$/);
  scan(root, /^package\.nls\.([\w-]+)\.json$/);
  return [...langs].sort();
}

function checkTranslation(label, english, translated, problems) {
  const missing = [];
  const mismatched = [];
  for (const [key, source] of Object.entries(english)) {
    const value = translated[key];
    if (typeof value !== 'string' || value === '') {
      missing.push(key);
      continue;
    }
    const want = tokens(messageOf(source));
    const got = tokens(value);
    if (want.join(' ') !== got.join(' '))
      mismatched.push(`${JSON.stringify(key)}: expected [${want.join(' ')}], found [${got.join(' ')}]`);
  }
  const stale = Object.keys(translated).filter((key) => !(key in english));
  if (missing.length)
    problems.push(
      `${label}: ${missing.length} untranslated:\n${missing.map((k) => `    ${JSON.stringify(k)}`).join('\n')}`,
    );
  if (mismatched.length)
    problems.push(
      `${label}: placeholders, codicons or command links differ from the English:\n${mismatched.map((m) => `    ${m}`).join('\n')}`,
    );
  if (stale.length)
    problems.push(
      `${label}: ${stale.length} keys the English no longer has (delete them):\n${stale.map((k) => `    ${JSON.stringify(k)}`).join('\n')}`,
    );
}

function manifestKeys(value, out = new Set()) {
  if (typeof value === 'string') {
    const m = /^%([^%\s]+)%$/.exec(value);
    if (m) out.add(m[1]);
  } else if (Array.isArray(value)) {
    for (const v of value) manifestKeys(v, out);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) manifestKeys(v, out);
  }
  return out;
}

/** The markdown pages of the walkthroughs' steps, as package.json names them. */
function walkthroughPages(manifest) {
  const pages = [];
  for (const walkthrough of manifest.contributes?.walkthroughs ?? []) {
    for (const step of walkthrough.steps ?? []) {
      if (typeof step.media?.markdown === 'string') pages.push(step.media.markdown);
    }
  }
  return pages;
}

/** Every problem found under `root`, one entry per file and rule; empty when all is complete. */
async function checkL10n(root) {
  const problems = [];
  const bundleFile = path.join(root, 'l10n', 'bundle.l10n.json');
  const extracted = await extractStrings(path.join(root, 'src'));
  const bundle = fs.existsSync(bundleFile)
    ? (readJson(bundleFile, problems) ?? {})
    : (problems.push(`${bundleFile}: missing; run \`npm run l10n:export\``), {});
  const notExported = Object.keys(extracted).filter((key) => !(key in bundle));
  const notInSrc = Object.keys(bundle).filter((key) => !(key in extracted));
  if (notExported.length)
    problems.push(
      `l10n/bundle.l10n.json: ${notExported.length} strings of src/ are missing (run \`npm run l10n:export\`):\n${notExported.map((k) => `    ${JSON.stringify(k)}`).join('\n')}`,
    );
  if (notInSrc.length)
    problems.push(
      `l10n/bundle.l10n.json: ${notInSrc.length} strings src/ no longer has (run \`npm run l10n:export\`):\n${notInSrc.map((k) => `    ${JSON.stringify(k)}`).join('\n')}`,
    );

  const nls = readJson(path.join(root, 'package.nls.json'), problems) ?? {};
  const manifest = readJson(path.join(root, 'package.json'), problems) ?? {};
  const used = [...manifestKeys(manifest)];
  const unknown = used.filter((key) => !(key in nls));
  if (unknown.length)
    problems.push(
      `package.nls.json: ${unknown.length} %keys% package.json uses are missing:\n${unknown.map((k) => `    ${k}`).join('\n')}`,
    );

  for (const lang of languagesIn(root)) {
    const langBundleFile = path.join(root, 'l10n', `bundle.l10n.${lang}.json`);
    const langNlsFile = path.join(root, `package.nls.${lang}.json`);
    const langBundle = fs.existsSync(langBundleFile)
      ? readJson(langBundleFile, problems)
      : (problems.push(`l10n/bundle.l10n.${lang}.json: missing`), undefined);
    const langNls = fs.existsSync(langNlsFile)
      ? readJson(langNlsFile, problems)
      : (problems.push(`package.nls.${lang}.json: missing`), undefined);
    if (langBundle) checkTranslation(`l10n/bundle.l10n.${lang}.json`, extracted, langBundle, problems);
    if (langNls) {
      checkTranslation(`package.nls.${lang}.json`, nls, langNls, problems);
    }
    const untranslatedPages = walkthroughPages(manifest)
      .map((page) => page.replace(/\.md$/, `.nls.${lang}.md`))
      .filter((page) => !fs.existsSync(path.join(root, page)));
    if (untranslatedPages.length)
      problems.push(
        `walkthrough pages without a ${lang} translation:\n${untranslatedPages.map((p) => `    ${p}`).join('\n')}`,
      );
  }
  return problems;
}

async function main() {
  const at = process.argv.indexOf('--root');
  const root = path.resolve(at >= 0 ? process.argv[at + 1] : path.join(__dirname, '..'));
  const problems = await checkL10n(root);
  if (problems.length) {
    console.error(`l10n check failed:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log(
    `l10n check: every string of src/ and package.json is in the bundle and translated (${languagesIn(root).join(', ')})`,
  );
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  });
}

module.exports = { checkL10n };
