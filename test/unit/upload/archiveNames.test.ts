// Names inside an upload archive: relative, never climbing out of the folder it is unpacked
// into, each segment short enough for common file systems, and no two alike.
import * as assert from 'node:assert/strict';
import { archiveEntryNames, archiveFileName, MAX_SEGMENT_BYTES, safeEntryName } from '../../../src/upload/archiveNames';

describe('upload/archiveNames', () => {
  it('keeps a folder structure as a relative path', () => {
    assert.equal(safeEntryName('docs/a/index.md'), 'docs/a/index.md');
  });

  it('drops absolute roots, drive letters, "." and ".." segments and backslash tricks', () => {
    assert.equal(safeEntryName('/etc/passwd'), 'etc/passwd');
    assert.equal(safeEntryName('C:\\Users\\me\\secret.txt'), 'Users/me/secret.txt');
    assert.equal(safeEntryName('docs/../../etc/passwd'), 'docs/etc/passwd');
    assert.equal(safeEntryName('docs\\..\\..\\x'), 'docs/x');
    assert.equal(safeEntryName('./a//b/./c'), 'a/b/c');
    assert.equal(safeEntryName('../..'), undefined);
    assert.equal(safeEntryName('a/b\u0000c\nd'), 'a/b_c_d');
  });

  it('cuts a segment longer than the file systems take, keeping its extension and whole characters', () => {
    const long = `${'ä'.repeat(200)}.txt`; // 404 bytes of UTF-8
    const safe = safeEntryName(`dir/${long}`) ?? '';
    const last = safe.split('/')[1];
    assert.ok(Buffer.byteLength(last, 'utf8') <= MAX_SEGMENT_BYTES, String(Buffer.byteLength(last, 'utf8')));
    assert.ok(last.endsWith('.txt'));
    assert.ok(!last.includes('\uFFFD'));
    assert.equal(safeEntryName(`d/${'x'.repeat(255)}`), `d/${'x'.repeat(255)}`);
  });

  it('numbers names that would collide (ignoring case), and leaves out names with nothing left', () => {
    assert.deepEqual(
      archiveEntryNames(['a/README.md', 'a/readme.md', './a/README.md', '..', 'a/Makefile', 'a/makefile']),
      ['a/README.md', 'a/readme (2).md', 'a/README (3).md', undefined, 'a/Makefile', 'a/makefile (2)'],
    );
  });

  it('names the archive after the one folder all entries are in, else by its file count', () => {
    assert.equal(archiveFileName(['docs/a.md', 'docs/b/c.md']), 'docs.zip');
    assert.equal(archiveFileName(['docs/a.md', 'notes/b.md', 'c.md']), '3-files.zip');
    assert.equal(archiveFileName(['a.md', 'b.md']), '2-files.zip');
  });
});
