// The web bundle's SHA-256 (plain JavaScript) gives Node's digest: hunk ids and content hashes
// are the same in the browser as on the desktop.
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { sha256Hex as nodeSha256 } from '../../../src/common/sha256';
import { sha256Hex as webSha256 } from '../../../src/common/sha256.web';

const node = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

describe('sha256Hex', () => {
  it('gives the known digest of the empty input and of "abc"', () => {
    assert.equal(webSha256(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(webSha256('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('gives Node’s digest for every length across the padding boundaries', () => {
    for (let length = 0; length <= 200; length++) {
      const bytes = randomBytes(length);
      assert.equal(webSha256(bytes), node(bytes), `length ${length}`);
    }
  });

  it('hashes a string as UTF-8, as Node does', () => {
    const text = 'Grüße \u202e 𝄞 line\r\n';
    assert.equal(webSha256(text), node(text));
    assert.equal(nodeSha256(text), node(text));
  });

  it('gives Node’s digest for a megabyte and a view into a larger buffer', () => {
    const bytes = randomBytes(1024 * 1024 + 3);
    assert.equal(webSha256(bytes), node(bytes));
    const view = bytes.subarray(5, 5000);
    assert.equal(webSha256(view), node(view));
  });
});
