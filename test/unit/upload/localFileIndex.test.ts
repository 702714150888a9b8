// The local index: the id list as before, plus where each upload came from, per service, kept
// across reloads (a Memento) and keyed by file id so alike names in two folders stay apart.
import * as assert from 'node:assert';
import type * as vscode from 'vscode';
import type { UploadOrigin } from '../../../src/review/types';
import { LocalFileIndex } from '../../../src/upload/localFileIndex';

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
    this.values.set(key, value);
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
  it('remembers each upload\'s origin by file id; alike names in two folders stay apart', async () => {
    const state = new MemoryMemento();
    let base = 'http://one';
    const index = new LocalFileIndex(state as unknown as vscode.Memento, () => base);
    await index.addUploads([origin('file_a', 'one'), origin('file_b', 'two')]);
    assert.deepStrictEqual(index.list(), ['file_a', 'file_b']);
    assert.strictEqual(index.origin('file_a')?.uri, 'file:///w/one/notes.md');
    assert.strictEqual(index.origin('file_b')?.workspaceFolder, 'file:///w/two');

    // A reload: a new index over the same state.
    const reloaded = new LocalFileIndex(state as unknown as vscode.Memento, () => base);
    assert.deepStrictEqual(reloaded.origin('file_b'), origin('file_b', 'two'));
    // Another service knows nothing of these uploads.
    base = 'http://two';
    assert.strictEqual(reloaded.origin('file_a'), undefined);
    assert.deepStrictEqual(reloaded.list(), []);
  });

  it('keeps the id list API: add, list newest first, remove (which forgets the origin too)', async () => {
    const state = new MemoryMemento();
    const index = new LocalFileIndex(state as unknown as vscode.Memento, () => 'http://one');
    await index.add(['file_old']);
    await index.addUploads([origin('file_new', 'one')]);
    assert.deepStrictEqual(index.list(), ['file_new', 'file_old']);
    await index.remove('file_new');
    assert.deepStrictEqual(index.list(), ['file_old']);
    assert.strictEqual(index.origin('file_new'), undefined);
  });

  it('ignores a malformed stored origin instead of trusting it', async () => {
    const state = new MemoryMemento();
    await state.update('agentRuntime.uploadOrigins', { 'http://one': { file_x: { fileId: 'file_x', uri: 42 } } });
    const index = new LocalFileIndex(state as unknown as vscode.Memento, () => 'http://one');
    assert.strictEqual(index.origin('file_x'), undefined);
  });
});
