// The strings of src/ that go into l10n/bundle.l10n.json, extracted by @vscode/l10n-dev. Shared by
// scripts/export-l10n.js (writes the bundle) and scripts/check-l10n.js (compares against it).
//
// l10n-dev only sees `vscode.l10n.t('...')` in files that import vscode. The pure view modules
// (src/views/format.ts, src/runEvents/runStatus.ts...) take a `Translate` function instead so they stay
// free of vscode; their calls `t('...')` reach vscode.l10n.t at run time but the extractor cannot
// see them. So each file that names the `Translate` type is handed to l10n-dev with the calls of
// every name declared as `Translate` spelled `vscode.l10n.t(` (same positions, same arguments): the
// strings are still extracted, unescaped and validated by l10n-dev itself.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');
const { getL10nJson } = require('@vscode/l10n-dev');

const SOURCE = /\.(ts|tsx|js|jsx)$/;

function listSources(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listSources(full));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** Names declared with the type `Translate` (parameters, variables) in one file. */
function translateNames(source) {
  const names = new Set();
  const visit = (node) => {
    if (
      (ts.isParameter(node) || ts.isVariableDeclaration(node)) &&
      node.type &&
      ts.isTypeReferenceNode(node.type) &&
      ts.isIdentifier(node.type.typeName) &&
      node.type.typeName.text === 'Translate' &&
      ts.isIdentifier(node.name)
    ) {
      names.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** The file's text with every call of a `Translate` name written as `vscode.l10n.t(...)`. */
function asL10nCalls(fileName, text) {
  if (!/\bTranslate\b/.test(text)) return text;
  const source = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const names = translateNames(source);
  if (names.size === 0) return text;
  const callees = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && names.has(node.expression.text)) {
      callees.push(node.expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  let out = text;
  for (const callee of callees.sort((a, b) => b.getStart(source) - a.getStart(source))) {
    out = `${out.slice(0, callee.getStart(source))}__l10nExtract.l10n.t${out.slice(callee.getEnd())}`;
  }
  return `import * as __l10nExtract from 'vscode';\n${out}`;
}

/**
 * Every string src/ translates, keyed as l10n-dev keys them: the message, or `message/comment`
 * for the `{ message, comment }` form (whose value is then that object).
 */
async function extractStrings(srcDir) {
  const files = listSources(srcDir).map((file) => ({
    extension: path.extname(file),
    contents: asL10nCalls(file, fs.readFileSync(file, 'utf8')),
  }));
  return getL10nJson(files);
}

/** The text of a bundle entry (a string, or l10n-dev's `{ message, comment }`). */
function messageOf(value) {
  return typeof value === 'string' ? value : value && typeof value.message === 'string' ? value.message : '';
}

module.exports = { extractStrings, messageOf, listSources };
