// Changes Since Revision N: what two whole revisions of the same start leave differently, per
// file; the files they leave the same are counted, never shown.
import * as assert from 'node:assert';
import { interdiff, type RevisionFile } from '../../../src/review/interdiff';

const enc = (text: string) => new TextEncoder().encode(text);
const dec = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function file(path: string, text: string, start?: string): RevisionFile {
  return {
    key: `file:///ws/${path}`,
    relativePath: path,
    bytes: enc(text),
    startBytes: start === undefined ? undefined : enc(start),
  };
}

describe('interdiff', () => {
  it("compares each file as the previous revision left it with this revision's, not with the start", () => {
    const out = interdiff(
      [file('app.txt', 'one\ntwo revised\n', 'one\ntwo\n')],
      [file('app.txt', 'one\ntwo revised\nthree\n', 'one\ntwo\n')],
    );
    assert.strictEqual(out.entries.length, 1);
    assert.strictEqual(dec(out.entries[0].before), 'one\ntwo revised\n');
    assert.strictEqual(dec(out.entries[0].after), 'one\ntwo revised\nthree\n');
    assert.strictEqual(out.entries[0].kind, 'changed');
  });

  it('leaves out a file both revisions leave the same, and counts it', () => {
    const out = interdiff(
      [file('a.txt', 'a revised\n', 'a\n'), file('b.txt', 'b revised\n', 'b\n')],
      [file('a.txt', 'a revised\n', 'a\n'), file('b.txt', 'b revised again\n', 'b\n')],
    );
    assert.deepStrictEqual(
      out.entries.map((e) => e.relativePath),
      ['b.txt'],
    );
    assert.deepStrictEqual(out.unchanged, ['a.txt']);
  });

  it('compares a file only this revision changed with its start', () => {
    const out = interdiff([], [file('new.txt', 'b revised\n', 'b\n')]);
    assert.strictEqual(out.entries[0].kind, 'added');
    assert.strictEqual(dec(out.entries[0].before), 'b\n');
  });

  it('shows a file this revision no longer changes going back to its start', () => {
    const out = interdiff([file('gone.txt', 'g revised\n', 'g\n')], []);
    assert.strictEqual(out.entries[0].kind, 'undone');
    assert.strictEqual(dec(out.entries[0].before), 'g revised\n');
    assert.strictEqual(dec(out.entries[0].after), 'g\n');
  });

  it('says which files it could not compare when their start is unknown', () => {
    const out = interdiff([file('old.txt', 'x\n')], [file('new.txt', 'y\n')]);
    assert.deepStrictEqual(out.entries, []);
    assert.deepStrictEqual(out.unknownStart, ['new.txt', 'old.txt']);
  });

  it('keeps the order this revision names its files in', () => {
    const out = interdiff([file('b.txt', '1\n'), file('a.txt', '1\n')], [file('a.txt', '2\n'), file('b.txt', '2\n')]);
    assert.deepStrictEqual(
      out.entries.map((e) => e.relativePath),
      ['a.txt', 'b.txt'],
    );
  });
});
