// `npm run lint` reads the types (eslint.config.mjs): a promise nobody waits for, a promise where a
// callback's result is ignored, an await of what is no promise, a bare promise returned inside try
// and a switch that misses a member of its union are errors in src/ and test/; the webview is
// checked against its own project (with the DOM); the JavaScript of esbuild.js and scripts/ is
// linted with Node's globals. Each probe is linted as the text of a file that exists, so the
// TypeScript project that holds the file is the one that checks it.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

const PROMISE_MISTAKES = `export async function probe(items: number[]): Promise<number> {
  Promise.resolve(1);
  items.forEach(async (n) => n);
  await items.length;
  try {
    return Promise.resolve(2);
  } catch {
    return 0;
  }
}
`;

const SWITCHES = `type Kind = 'file' | 'folder' | 'link';
export function missing(kind: Kind): string {
  switch (kind) {
    case 'file':
      return 'f';
    case 'folder':
      return 'd';
  }
  return '?';
}
export function decided(kind: Kind): string {
  switch (kind) {
    case 'file':
      return 'f';
    default:
      return 'other';
  }
}
`;

let eslint: ESLint;

async function lint(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.map((m) => `${m.line} ${m.ruleId ?? m.message}`);
}

describe('type-checked lint (eslint.config.mjs)', function () {
  // Building a TypeScript program of the whole tree takes seconds on a busy machine.
  this.timeout(180_000);

  before(() => {
    eslint = new ESLint({ cwd: ROOT });
  });

  it('reports floating and misused promises, awaited non-promises and a bare return in try, in src/ and test/', async () => {
    const expected = [
      '2 @typescript-eslint/no-floating-promises',
      '3 @typescript-eslint/no-misused-promises',
      '4 @typescript-eslint/await-thenable',
      '6 @typescript-eslint/return-await',
    ];
    assert.deepEqual(await lint('src/common/plural.ts', PROMISE_MISTAKES), expected);
    assert.deepEqual(await lint('test/unit/build/layers.test.ts', PROMISE_MISTAKES), expected);
  });

  it('reports a switch that misses a member of its union; a default decides for the rest', async () => {
    assert.deepEqual(await lint('src/common/plural.ts', SWITCHES), [
      '3 @typescript-eslint/switch-exhaustiveness-check',
    ]);
  });

  it('reports a type assertion that changes nothing', async () => {
    const code = 'export function name(value: string): string {\n  return value as string;\n}\n';
    assert.deepEqual(await lint('src/common/plural.ts', code), ['2 @typescript-eslint/no-unnecessary-type-assertion']);
  });

  it('checks the webview against its own project, which knows the DOM', async () => {
    // Without the DOM types, writeText would be of no known type and its promise would go unseen.
    const code = 'export function copy(text: string): void {\n  navigator.clipboard.writeText(text);\n}\n';
    assert.deepEqual(await lint('src/webview/flash.ts', code), ['2 @typescript-eslint/no-floating-promises']);
  });

  it('lints esbuild.js and scripts/ as Node JavaScript', async () => {
    const code =
      "'use strict';\nconst fs = require('fs');\nconsole.log(__dirname, fs.existsSync(process.argv[2]));\nnotDefined();\n";
    assert.deepEqual(await lint('esbuild.js', code), ['4 no-undef']);
    assert.deepEqual(await lint('scripts/check-l10n.js', code), ['4 no-undef']);
  });
});
