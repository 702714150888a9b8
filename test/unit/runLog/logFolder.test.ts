// The run-log folder's file names: a run's transcript is named by its service like its log, so
// two services' runs with one id keep two transcripts, and housekeeping still prunes them.
import * as assert from 'node:assert';
import { promises as fsp, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { logFilePath, pruneLogFolder, serviceKey, transcriptFilePath } from '../../../src/runLog/logFolder';
import { tempFolder } from './synthetic';

describe('transcriptFilePath', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => (folder = tempFolder()));
  afterEach(() => folder.remove());

  const one = 'https://one.example.com';
  const other = 'http://127.0.0.1:8080';

  it("names two services' transcripts of the same run id apart, each beside its own log", () => {
    const first = transcriptFilePath(folder.dir, 'run_same', one) as string;
    const second = transcriptFilePath(folder.dir, 'run_same', other) as string;
    assert.notStrictEqual(first, second);
    assert.strictEqual(first, path.join(folder.dir, `run_same.${serviceKey(one)}.transcript.md`));
    const stem = (file: string, suffix: string) => path.basename(file).slice(0, -suffix.length);
    assert.strictEqual(
      stem(first, '.transcript.md'),
      stem(logFilePath(folder.dir, 'run_same', one) as string, '.events.jsonl'),
    );
    assert.strictEqual(
      transcriptFilePath(folder.dir, 'run_same', `${one}/`),
      first,
      "the service is normalised like the log's",
    );
  });

  it('names no file for an id with path characters', () => {
    assert.strictEqual(transcriptFilePath(folder.dir, '../run_x', one), undefined);
    assert.strictEqual(transcriptFilePath(folder.dir, 'run_a/b', one), undefined);
  });

  it('leaves both transcripts to housekeeping, oldest first, like the logs', async () => {
    const files = [
      transcriptFilePath(folder.dir, 'run_same', one),
      transcriptFilePath(folder.dir, 'run_same', other),
      logFilePath(folder.dir, 'run_same', one),
    ].map((f, i) => {
      writeFileSync(f as string, 'x'.repeat(100));
      utimesSync(f as string, 1000 + i, 1000 + i);
      return f as string;
    });
    const removed = await pruneLogFolder(folder.dir, new Set(), { maxBytes: 1e9, maxRuns: 1 });
    assert.deepStrictEqual(removed, [files[0], files[1]]);
    assert.deepStrictEqual(await fsp.readdir(folder.dir), [path.basename(files[2])]);
  });
});
