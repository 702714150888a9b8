// File contents at rest: AES-256-GCM streamed in and out, key kept in the data directory.
// Blob layout: 'ARB1' | 12-byte IV | ciphertext | 16-byte auth tag.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const MAGIC = Buffer.from('ARB1');
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC.length + IV_BYTES;

/** A blob being written: feed it plaintext, then commit (rename into place) or discard. */
export interface BlobWriter {
  readonly sink: Writable;
  /** Resolves once every byte is encrypted and on disk; gives the plaintext size. */
  finished(): Promise<number>;
  commit(id: string): void;
  discard(): void;
}

export class BlobStore {
  private readonly key: Buffer;
  private readonly blobDir: string;
  private readonly tmpDir: string;

  constructor(dataDir: string) {
    this.blobDir = path.join(dataDir, 'blobs');
    this.tmpDir = path.join(dataDir, 'tmp');
    fs.mkdirSync(this.blobDir, { recursive: true });
    fs.mkdirSync(this.tmpDir, { recursive: true });
    // Leftovers of uploads cut by a crash are never committed: drop them.
    for (const name of fs.readdirSync(this.tmpDir)) {
      fs.rmSync(path.join(this.tmpDir, name), { force: true });
    }
    const keyFile = path.join(dataDir, 'blob.key');
    if (!fs.existsSync(keyFile)) {
      fs.writeFileSync(keyFile, randomBytes(32), { mode: 0o600, flag: 'wx' });
    }
    this.key = fs.readFileSync(keyFile);
    if (this.key.length !== 32) {
      throw new Error('blob.key in the data directory is not a 256-bit key');
    }
  }

  blobPath(id: string): string {
    return path.join(this.blobDir, `${id}.bin`);
  }

  createWriter(): BlobWriter {
    const tmp = path.join(this.tmpDir, `${randomBytes(8).toString('hex')}.part`);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const out = fs.createWriteStream(tmp, { highWaterMark: 1024 * 1024 });
    let plainBytes = 0;
    let headerWritten = false;
    const encrypt = new Transform({
      transform(chunk: Buffer, _enc, done) {
        plainBytes += chunk.length;
        const sealed = cipher.update(chunk);
        if (!headerWritten) {
          headerWritten = true;
          done(null, Buffer.concat([MAGIC, iv, sealed]));
        } else {
          done(null, sealed);
        }
      },
      flush(done) {
        const head = headerWritten ? Buffer.alloc(0) : Buffer.concat([MAGIC, iv]);
        done(null, Buffer.concat([head, cipher.final(), cipher.getAuthTag()]));
      },
    });
    let settled = false;
    const done = pipeline(encrypt, out).then(() => plainBytes);
    done.catch(() => undefined);
    return {
      sink: encrypt,
      finished: () => done,
      commit: (id) => {
        settled = true;
        fs.renameSync(tmp, this.blobPath(id));
      },
      discard: () => {
        if (settled) {
          return;
        }
        settled = true;
        encrypt.destroy();
        out.destroy();
        fs.rmSync(tmp, { force: true });
      },
    };
  }

  async writeAll(id: string, content: Buffer | string): Promise<number> {
    const writer = this.createWriter();
    writer.sink.end(content);
    const bytes = await writer.finished();
    writer.commit(id);
    return bytes;
  }

  /** A plaintext stream of the blob; it errors at the end if the ciphertext was tampered with. */
  openRead(id: string): Readable {
    const file = this.blobPath(id);
    const fd = fs.openSync(file, 'r');
    let size: number;
    const header = Buffer.alloc(HEADER_BYTES);
    const tag = Buffer.alloc(TAG_BYTES);
    try {
      size = fs.fstatSync(fd).size;
      if (size < HEADER_BYTES + TAG_BYTES) {
        throw new Error(`blob ${id} is truncated`);
      }
      fs.readSync(fd, header, 0, HEADER_BYTES, 0);
      fs.readSync(fd, tag, 0, TAG_BYTES, size - TAG_BYTES);
    } finally {
      fs.closeSync(fd);
    }
    if (!header.subarray(0, MAGIC.length).equals(MAGIC)) {
      throw new Error(`blob ${id} has an unknown format`);
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, header.subarray(MAGIC.length));
    decipher.setAuthTag(tag);
    const cipherBytes = size - HEADER_BYTES - TAG_BYTES;
    if (cipherBytes === 0) {
      decipher.end();
      return decipher;
    }
    const source = fs.createReadStream(file, { start: HEADER_BYTES, end: HEADER_BYTES + cipherBytes - 1 });
    source.on('error', (err) => decipher.destroy(err));
    return source.pipe(decipher);
  }

  async readAll(id: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.openRead(id)) {
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  remove(id: string): void {
    fs.rmSync(this.blobPath(id), { force: true });
  }
}
