// The repository stands on its own: no tracked file cites the protocol notes kept outside it
// (docs/PROTOCOL.md is the project's account) or a tracker's issue number, which means nothing
// to a reader of the code; a citation names a section of docs/PROTOCOL.md or says the reason.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

// Spelt in two parts so that this file does not cite what it forbids.
const OUTSIDE_NOTES = new RegExp(['PROTOCOL', 'NOTES'].join('-'), 'i');
// "issue" or "issues", then a number with or without "#" (also "issues #N, #M"); not a GitHub
// URL (`/issues/N`) nor a call such as `ca.issue('127.0.0.1')`.
const ISSUE_NUMBER = /\bissues?\s*#\d+|\bissues?\s+\d+/i;

interface Hit {
  file: string;
  line: number;
  text: string;
}

function trackedTextFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return listed
    .split('\0')
    .filter((file) => file !== '' && !file.split('/').includes('node_modules'))
    .filter((file) => fs.lstatSync(path.join(ROOT, file), { throwIfNoEntry: false })?.isFile() === true);
}

function citations(pattern: RegExp, files: readonly string[] = trackedTextFiles()): Hit[] {
  const hits: Hit[] = [];
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(ROOT, file));
    if (bytes.subarray(0, 8000).includes(0)) {
      continue; // binary (images)
    }
    bytes
      .toString('utf8')
      .split('\n')
      .forEach((text, index) => {
        if (pattern.test(text)) {
          hits.push({ file, line: index + 1, text: text.trim().slice(0, 120) });
        }
      });
  }
  return hits;
}

function listed(hits: readonly Hit[]): string {
  return hits.map((h) => `\n  ${h.file}:${h.line}: ${h.text}`).join('');
}

describe('the repository cites nothing outside it', () => {
  const files = trackedTextFiles();

  it('sees the tracked files (git ls-files answered)', () => {
    assert.ok(files.includes('docs/PROTOCOL.md') && files.includes('package.json'), 'git ls-files listed too little');
  });

  it('no tracked file cites the protocol notes outside the repository (cite docs/PROTOCOL.md, <section>)', () => {
    const hits = citations(OUTSIDE_NOTES, files);
    assert.equal(hits.length, 0, `cite docs/PROTOCOL.md and a section instead:${listed(hits)}`);
  });

  it("no tracked file points at a tracker's issue number (name what was built or measured)", () => {
    const hits = citations(ISSUE_NUMBER, files);
    assert.equal(hits.length, 0, `say what it is instead of an issue number:${listed(hits)}`);
  });

  it('the issue-number rule hits the forms it is meant for and spares the rest', () => {
    // Put together here, so that this file does not cite what it forbids.
    const word = 'issue';
    for (const bad of [`(${word} 12)`, `${word} #24: memory`, `${word}s 4 and 16`, `${word}s #15, #16`]) {
      assert.ok(ISSUE_NUMBER.test(bad), bad);
    }
    for (const fine of ['https://github.com/o/r/issues/12', "proxyCa.issue('127.0.0.1')", 'an issue with 3 files']) {
      assert.ok(!ISSUE_NUMBER.test(fine), fine);
    }
  });
});
