// The local index: the id list in globalState as before; where each upload came from and which
// files each task created here was given, in a JSON file of the global storage folder (the
// machine that has the files), per service, keyed by file id so alike names in two folders stay
// apart. A new globalState (code-server's second browser, a cleared profile) still finds them.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { UploadOrigin } from '../../../src/review/types';
import { LEGACY_ORIGINS_KEY, LocalFileIndex } from '../../../src/upload/localFileIndex';
import { readUploadRecord, STALE_LOCK_MS, withRecordLock } from '../../../src/upload/uploadRecordDisk';
import { MAX_REMEMBERED } from '../../../src/upload/uploadRecordFile';

class MemoryMemento {
  readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    // Through JSON, as globalState stores it.
    return this.values.has(key) ? (JSON.parse(JSON.stringify(this.values.get(key))) as T) : fallback;
  }
  update(key: string, value: unknown): Thenable<void> {
    if (value === undefined) {
      this.values.delete(key);
    } else {
      this.values.set(key, value);
    }
    return Promise.resolve();
  }
}

const origin = (fileId: string, folder: string, at = '2026-01-01T00:00:00.000Z'): UploadOrigin => ({
  fileId,
  uri: `file:///w/${folder}/notes.md`,
  workspaceFolder: `file:///w/${folder}`,
  relativePath: 'notes.md',
  sha256: 'ab'.repeat(32),
  bytes: 10,
  uploadedAt: at,
});

describe('LocalFileIndex', () => {
  let dir: string;
  let file: string;
  const memento = (state: MemoryMemento) => state as unknown as vscode.Memento;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upload-record-'));
    file = path.join(dir, 'globalStorage', 'upload-record.json');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("remembers each upload's origin by file id; alike names in two folders stay apart", async () => {
    const state = new MemoryMemento();
    let base = 'http://one';
    const index = new LocalFileIndex(memento(state), () => base, file);
    await index.addUploads([origin('file_a', 'one'), origin('file_b', 'two')]);
    assert.deepStrictEqual(index.list(), ['file_a', 'file_b']);
    assert.strictEqual(index.origin('file_a')?.uri, 'file:///w/one/notes.md');
    assert.strictEqual(index.origin('file_b')?.workspaceFolder, 'file:///w/two');

    // A reload: a new index over the same state and folder.
    const reloaded = new LocalFileIndex(memento(state), () => base, file);
    await reloaded.refresh();
    assert.deepStrictEqual(reloaded.origin('file_b'), origin('file_b', 'two'));
    // Another service knows nothing of these uploads.
    base = 'http://two';
    assert.strictEqual(reloaded.origin('file_a'), undefined);
    assert.deepStrictEqual(reloaded.list(), []);
  });

  it('keeps the origins with the files: a new globalState (another browser under code-server) still finds them', async () => {
    const first = new LocalFileIndex(memento(new MemoryMemento()), () => 'http://one', file);
    await first.addUploads([origin('file_a', 'one')]);
    await first.recordTask('task_1', ['file_a']);
    assert.ok(fs.existsSync(file), 'the record is a file in the global storage folder');
    const leftovers = fs.readdirSync(path.dirname(file)).filter((name) => name !== path.basename(file));
    assert.deepStrictEqual(leftovers, [], 'written atomically: no temporary file is left');

    const otherBrowser = new LocalFileIndex(memento(new MemoryMemento()), () => 'http://one', file);
    await otherBrowser.refresh();
    assert.deepStrictEqual(otherBrowser.origin('file_a'), origin('file_a', 'one'));
    assert.deepStrictEqual(otherBrowser.taskFiles('task_1'), ['file_a']);
    assert.strictEqual(otherBrowser.taskFiles('task_2'), undefined);
  });

  it('moves the origins an older version kept in globalState into the file, once', async () => {
    const state = new MemoryMemento();
    await state.update(LEGACY_ORIGINS_KEY, {
      'http://one': { file_old: origin('file_old', 'one'), file_bad: { fileId: 'file_bad', uri: 42 } },
    });
    const index = new LocalFileIndex(memento(state), () => 'http://one', file);
    await index.refresh();
    assert.deepStrictEqual(index.origin('file_old'), origin('file_old', 'one'));
    assert.strictEqual(index.origin('file_bad'), undefined, 'a malformed stored origin is not trusted');
    assert.strictEqual(state.values.has(LEGACY_ORIGINS_KEY), false, 'the old copy is gone from globalState');
    const { record } = await readUploadRecord(file);
    assert.deepStrictEqual(Object.keys(record.services['http://one'].origins), ['file_old']);

    // Once: a later refresh reads the file only (a forgotten origin does not come back).
    await index.remove('file_old');
    await index.refresh();
    assert.strictEqual(index.origin('file_old'), undefined);
  });

  it('merges what another window wrote meanwhile instead of overwriting it', async () => {
    const one = new LocalFileIndex(memento(new MemoryMemento()), () => 'http://one', file);
    const two = new LocalFileIndex(memento(new MemoryMemento()), () => 'http://one', file);
    await one.addUploads([origin('file_a', 'one')]);
    await two.addUploads([origin('file_b', 'two')]);
    await one.refresh();
    assert.ok(one.origin('file_a') && one.origin('file_b'), "both windows' uploads are in the file");
  });

  it('loses no update when two windows change the file at the same instant (the lock)', async () => {
    const one = new LocalFileIndex(memento(new MemoryMemento()), () => 'http://one', file);
    const two = new LocalFileIndex(memento(new MemoryMemento()), () => 'http://one', file);
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? one : two).addUploads([origin(`file_${i}`, `f${i}`)])),
    );
    const { record } = await readUploadRecord(file);
    assert.deepStrictEqual(
      Object.keys(record.services['http://one'].origins).sort(),
      Array.from({ length: 12 }, (_, i) => `file_${i}`).sort(),
      "one window's write replaced the other's",
    );
    assert.ok(!fs.existsSync(`${file}.lock`), 'the lock file was left behind');
  });

  it('takes over a lock a stopped window left behind, once it is old', async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(`${file}.lock`, '');
    const old = (Date.now() - STALE_LOCK_MS - 1000) / 1000;
    fs.utimesSync(`${file}.lock`, old, old);
    const index = new LocalFileIndex(memento(new MemoryMemento()), () => 'http://one', file);
    await index.addUploads([origin('file_a', 'one')]);
    assert.ok(index.origin('file_a'));
  });

  it("removes only its own lock: a window whose lock was taken over leaves the new owner's", async () => {
    await withRecordLock(file, async () => {
      fs.writeFileSync(`${file}.lock`, 'another-window');
    });
    assert.equal(fs.readFileSync(`${file}.lock`, 'utf8'), 'another-window');
  });

  it('stays bounded: the newest uploads are kept, a file that is not ours is ignored', async () => {
    const index = new LocalFileIndex(memento(new MemoryMemento()), () => 'http://one', file);
    const many = Array.from({ length: MAX_REMEMBERED + 20 }, (_, i) =>
      origin(`file_${i}`, 'one', new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString()),
    );
    await index.addUploads(many);
    const { record } = await readUploadRecord(file);
    assert.strictEqual(Object.keys(record.services['http://one'].origins).length, MAX_REMEMBERED);
    assert.ok(index.origin(`file_${MAX_REMEMBERED + 19}`), 'the newest is kept');
    assert.strictEqual(index.origin('file_0'), undefined, 'the oldest went');

    fs.writeFileSync(
      file,
      '{"services": {"http://one": {"origins": {"__proto__": {"polluted": true}}}}} trailing junk',
    );
    await index.refresh();
    assert.strictEqual(index.origin('file_1'), undefined, 'unreadable: nothing trusted');
    assert.strictEqual(({} as Record<string, unknown>).polluted, undefined);
  });

  it('keeps the id list API: add, list newest first, remove (which forgets the origin too)', async () => {
    const state = new MemoryMemento();
    const index = new LocalFileIndex(memento(state), () => 'http://one', file);
    await index.add(['file_old']);
    await index.addUploads([origin('file_new', 'one')]);
    assert.deepStrictEqual(index.list(), ['file_new', 'file_old']);
    await index.remove('file_new');
    assert.deepStrictEqual(index.list(), ['file_old']);
    assert.strictEqual(index.origin('file_new'), undefined);
  });
});
