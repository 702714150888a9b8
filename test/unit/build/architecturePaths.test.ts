// docs/ARCHITECTURE.md stays true about where things are: every path it names in backticks
// (`src/common/notify.ts`, `test/runtime/`) exists, every bare module name (`client.ts`) is a
// file of src/ or test/, and every relative link leads to a file.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const DOC = path.join(ROOT, 'docs', 'ARCHITECTURE.md');

/** Folders made by the build, an install or a test run: a path into them is not in a checkout. */
const GENERATED = new Set(['node_modules', 'out', 'dist', '.cache', '.git', '.vscode-test', 'test-results']);

/** The spans in backticks, with their line numbers (fenced blocks left out). */
function codeSpans(markdown: string): { line: number; text: string }[] {
  const spans: { line: number; text: string }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((text, i) => {
    if (text.trimStart().startsWith('```')) {
      fenced = !fenced;
      return;
    }
    if (!fenced) {
      for (const m of text.matchAll(/`([^`\n]+)`/g)) {
        spans.push({ line: i + 1, text: m[1] });
      }
    }
  });
  return spans;
}

/** Which spans name a path of the repository: the first part is a folder at its top. */
function repositoryPaths(spans: { line: number; text: string }[], topFolders: Set<string>): typeof spans {
  return spans.filter(({ text }) => {
    if (/[\s*<>{}]/.test(text) || !text.includes('/')) {
      return false;
    }
    return topFolders.has(text.split('/')[0]);
  });
}

function filesUnder(dir: string, into: Set<string>): Set<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      filesUnder(path.join(dir, entry.name), into);
    } else {
      into.add(entry.name);
    }
  }
  return into;
}

describe('docs/ARCHITECTURE.md names only what exists', () => {
  const markdown = fs.readFileSync(DOC, 'utf8');
  const spans = codeSpans(markdown);
  const topFolders = new Set(
    fs
      .readdirSync(ROOT, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !GENERATED.has(d.name))
      .map((d) => d.name),
  );

  it('every path in backticks that starts at a folder of the repository exists', () => {
    const named = repositoryPaths(spans, topFolders);
    assert.ok(named.length >= 50, `only ${named.length} paths found: is the pattern still right?`);
    const missing = named.filter(({ text }) => !fs.existsSync(path.join(ROOT, text)));
    assert.deepEqual(
      missing.map(({ line, text }) => `line ${line}: ${text}`),
      [],
    );
  });

  it('every bare module name in backticks is a file of src/ or test/', () => {
    const files = filesUnder(path.join(ROOT, 'test'), filesUnder(path.join(ROOT, 'src'), new Set()));
    const missing = spans.filter(({ text }) => /^[\w.-]+\.ts$/.test(text) && !files.has(text));
    assert.deepEqual(
      missing.map(({ line, text }) => `line ${line}: ${text}`),
      [],
    );
  });

  it('every relative link leads to a file', () => {
    const missing: string[] = [];
    markdown.split('\n').forEach((text, i) => {
      for (const m of text.matchAll(/\]\(([^)\s#]+)(#[^)]*)?\)/g)) {
        if (!/^[a-z]+:/.test(m[1]) && !fs.existsSync(path.join(path.dirname(DOC), m[1]))) {
          missing.push(`line ${i + 1}: ${m[1]}`);
        }
      }
    });
    assert.deepEqual(missing, []);
  });

  it('recognises a path by its first folder and leaves other code alone', () => {
    const sample = codeSpans(
      'See `src/common/notify.ts`, `test/runtime/`, `a/<relativePath>`, `viewItem == run`, `dist/x.js`.\n' +
        '```\nsrc/inside/a/fence.ts\n```\n',
    );
    assert.deepEqual(
      repositoryPaths(sample, new Set(['src', 'test'])).map((s) => s.text),
      ['src/common/notify.ts', 'test/runtime/'],
    );
  });
});
