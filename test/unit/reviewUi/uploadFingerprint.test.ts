// The hash kept for an upload is trusted only when the file did not change around the upload.
import * as assert from 'node:assert';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { hashIfUnchanged, stampOf } from '../../../src/reviewUi/uploadFingerprint';

describe('upload fingerprint', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fingerprint-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('gives the SHA-256 of the bytes when size and mtime are unchanged', async () => {
    const file = path.join(dir, 'a.txt');
    await fs.writeFile(file, 'hello\n');
    const stamp = await stampOf(file);
    assert.strictEqual(await hashIfUnchanged(file, stamp), createHash('sha256').update('hello\n').digest('hex'));
  });

  it('gives nothing when the file changed after the stamp, even to the same size', async () => {
    const file = path.join(dir, 'a.txt');
    await fs.writeFile(file, 'hello\n');
    const stamp = await stampOf(file);
    assert.ok(stamp);
    await fs.writeFile(file, 'HELLO\n');
    const later = new Date(stamp.mtimeMs + 5000);
    await fs.utimes(file, later, later);
    assert.strictEqual(await hashIfUnchanged(file, stamp), undefined);
  });

  it('gives nothing for a file that is gone or was never stamped', async () => {
    const file = path.join(dir, 'a.txt');
    await fs.writeFile(file, 'x');
    const stamp = await stampOf(file);
    await fs.rm(file);
    assert.strictEqual(await hashIfUnchanged(file, stamp), undefined);
    assert.strictEqual(await stampOf(file), undefined);
    assert.strictEqual(await hashIfUnchanged(file, undefined), undefined);
  });
});
