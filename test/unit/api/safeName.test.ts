// Names from the server become one safe path segment.
import * as assert from 'node:assert/strict';
import { safeFileName } from '../../../src/api/safeName';

describe('api/safeName', () => {
  it('keeps ordinary names as they are', () => {
    for (const name of ['report.md', 'summary (1).txt', 'données.csv', '_config.yml', 'a.b.c']) {
      assert.equal(safeFileName(name), name);
    }
  });

  it('never lets a name climb out of the folder or carry a directory', () => {
    for (const name of [
      '../../etc/passwd',
      '..\\..\\windows\\win.ini',
      '/etc/passwd',
      'C:\\x\\y.txt',
      '..',
      '.',
      'a/../b',
    ]) {
      const safe = safeFileName(name);
      assert.ok(!/[/\\]/.test(safe), `${name} -> ${safe}`);
      assert.ok(!safe.includes('..'), `${name} -> ${safe}`);
      assert.ok(!safe.startsWith('.'), `${name} -> ${safe}`);
      assert.notEqual(safe, '');
    }
  });

  it('removes control characters, Windows-forbidden characters, trailing dots and spaces', () => {
    assert.equal(safeFileName('a\u0000b\nc\u202e.txt'), 'abc.txt');
    assert.equal(safeFileName('what?*<>|":.txt'), 'what_______.txt');
    assert.equal(safeFileName('name. . '), 'name');
  });

  it('prefixes Windows device names, whatever the case or extension', () => {
    for (const name of ['CON', 'nul', 'Com1', 'LPT9.txt', 'aux.tar.gz', 'PRN. ']) {
      assert.ok(safeFileName(name).startsWith('_'), name);
    }
    assert.equal(safeFileName('console.log'), 'console.log');
  });

  it('is never empty and keeps long names bounded with their extension', () => {
    assert.equal(safeFileName(''), 'download');
    assert.equal(safeFileName('...'), 'download');
    assert.equal(safeFileName(undefined), 'download');
    assert.equal(safeFileName('///', 'artifact.bin'), 'artifact.bin');
    const long = safeFileName(`${'x'.repeat(500)}.json`);
    assert.ok(long.length <= 200);
    assert.ok(long.endsWith('.json'));
  });
});
