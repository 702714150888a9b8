// Reading the text/uri-list of an Explorer drop.
import * as assert from 'node:assert/strict';
import { parseUriList } from '../../../src/common/uriList';

describe('views/uriList', () => {
  it('reads CRLF-separated URIs, skipping comments, blanks and repeats', () => {
    const text =
      '# dragged from the Explorer\r\nfile:///home/u/a.txt\r\n\r\nfile:///home/u/b%20c.md\r\nfile:///home/u/a.txt\r\n';
    assert.deepEqual(parseUriList(text), ['file:///home/u/a.txt', 'file:///home/u/b%20c.md']);
  });

  it('accepts LF-only lists and other schemes, but not bare paths', () => {
    assert.deepEqual(parseUriList('vscode-remote://ssh/x.txt\n/tmp/not-a-uri\nhello'), ['vscode-remote://ssh/x.txt']);
    assert.deepEqual(parseUriList(''), []);
  });
});
