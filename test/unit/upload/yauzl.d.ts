// The slice of yauzl (zip reader, tests only) the archive tests use; the package ships no types.
declare module 'yauzl' {
  import type { EventEmitter } from 'node:events';
  import type { Readable } from 'node:stream';
  export interface Entry {
    fileName: string;
    uncompressedSize: number;
  }
  export interface ZipFile extends EventEmitter {
    readEntry(): void;
    openReadStream(entry: Entry, callback: (err: Error | null, stream: Readable) => void): void;
    close(): void;
  }
  export function fromBuffer(
    buffer: Buffer,
    options: { lazyEntries: boolean },
    callback: (err: Error | null, zip: ZipFile) => void,
  ): void;
}
