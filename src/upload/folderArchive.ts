// Packs planned files into one zip (yazl) on disk, streaming each file through: only the
// chunk in flight is in memory, whatever the folder's size. Plain Node; the editor's upload
// flow and the benchmark both call it.
import { constants, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../api/errors';
import { archiveEntryNames } from './archiveNames';
import type { PlannedFile } from './uploadPlan';
import { loadYazl } from './yazl';

// As the upload itself: the file checked is the file read, a path swapped for a link is refused.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

/** Formats that are already compressed: stored as they are, so no time goes into deflating them. */
const STORED =
  /\.(zip|gz|tgz|bz2|xz|zst|7z|rar|jar|whl|png|jpe?g|gif|webp|heic|avif|mp3|mp4|m4a|mov|avi|mkv|webm|pdf|docx|xlsx|pptx|odt|ods|epub)$/i;

export interface ArchiveProgress {
  filesDone: number;
  fileCount: number;
  /** Bytes of the files read into the archive. */
  bytesDone: number;
  totalBytes: number;
}

export interface WrittenArchive {
  /** The archive's size on disk. */
  bytes: number;
  /** The entry names, in the order of the files; files whose name had nothing left are left out. */
  entries: string[];
}

export async function writeArchive(
  files: readonly PlannedFile[],
  target: string,
  options: { signal?: AbortSignal; followSymlinks?: boolean; onProgress?: (p: ArchiveProgress) => void } = {},
): Promise<WrittenArchive> {
  const names = archiveEntryNames(files.map((f) => f.name));
  const totalBytes = files.reduce((n, f) => n + f.bytes, 0);
  const progress: ArchiveProgress = { filesDone: 0, fileCount: files.length, bytesDone: 0, totalBytes };
  const { ZipFile } = loadYazl();
  const zip = new ZipFile();
  // The file being read: a cancel must close it too, not only the archive's output.
  let current: Readable | undefined;
  // A file that cannot be read fails the archive (yazl reports it on the ZipFile, not its output).
  const fail = (err: unknown) => zip.outputStream.emit('error', err);
  zip.on('error', fail);
  const entries: string[] = [];
  files.forEach((file, i) => {
    const name = names[i];
    if (name === undefined) {
      return;
    }
    entries.push(name);
    if (file.symlinkTarget !== undefined && options.followSymlinks !== true) {
      throw new ApiError({
        kind: 'validation',
        param: 'file',
        message: `"${file.name}" is a symbolic link; it is packed only when following links is confirmed.`,
      });
    }
    const readPath = file.symlinkTarget ?? file.path;
    const entry = { size: file.bytes, compress: !STORED.test(name) };
    // Lazy: a folder of thousands of files must not hold thousands of open files.
    zip.addReadStreamLazy(name, entry, (done) => {
      const opened = (stream: Readable) => {
        current = stream;
        stream.once('error', fail);
        stream.on('data', (chunk: Buffer) => {
          progress.bytesDone += chunk.length;
          options.onProgress?.({ ...progress });
        });
        stream.once('end', () => {
          progress.filesDone++;
          options.onProgress?.({ ...progress });
        });
        done(null, stream);
      };
      if (file.read) {
        file
          .read()
          .then(
            (bytes) => opened(Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)])),
            fail,
          );
      } else {
        open(readPath, OPEN_FLAGS).then(
          (handle) => opened(handle.createReadStream({ highWaterMark: 256 * 1024 })),
          fail,
        );
      }
    });
  });
  zip.end();
  try {
    const out = createWriteStream(target);
    await pipeline(zip.outputStream, out, { signal: options.signal });
    return { bytes: out.bytesWritten, entries };
  } catch (err) {
    current?.destroy();
    if (options.signal?.aborted) {
      throw new ApiError({ kind: 'aborted', message: 'The upload was cancelled.' });
    }
    throw err;
  }
}
