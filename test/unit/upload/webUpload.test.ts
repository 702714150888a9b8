// Uploads in VS Code for the Web: every file is a URI read through workspace.fs (planned by its
// stat before a byte is read, refused past the limits), and the web bundle's twins of the
// disk-only parts refuse or record without a disk. The editor is the unit stub, its fs patched in.
import '../views/vscodeStub';
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ApiError } from '../../../src/api/errors';
import { MAX_UPLOAD_BYTES } from '../../../src/api/types';
import { recordUploads, stampFiles } from '../../../src/commands/uploadOriginRecord.web';
import { uploadArchive } from '../../../src/upload/archiveUpload.web';
import type { LocalFileIndex } from '../../../src/upload/localFileIndex';
import { basename } from '../../../src/upload/pathNames.web';
import { utf8Bytes } from '../../../src/upload/uploadChoice';
import { listFolder, planUpload } from '../../../src/upload/uploadPlan.web';
import { MAX_IN_MEMORY_BYTES, planVirtualUpload } from '../../../src/upload/workspaceFiles';

type Mutable = Record<string, unknown>;

interface FakeUri {
  scheme: string;
  path: string;
  toString(): string;
}

const uri = (path: string): FakeUri => ({
  scheme: 'vscode-remote',
  path,
  toString: () => `vscode-remote://host${path}`,
});

describe('upload/web: workspace files through workspace.fs', () => {
  const workspace = vscode.workspace as unknown as Mutable;
  const uriClass = vscode.Uri as unknown as Mutable;
  const originalParse = uriClass.parse;
  let stats: Map<string, { type: number; size: number } | Error>;
  let contents: Map<string, Uint8Array>;
  let reads: string[];

  beforeEach(() => {
    stats = new Map();
    contents = new Map();
    reads = [];
    workspace.fs = {
      stat: async (u: FakeUri) => {
        const found = stats.get(u.path);
        if (found instanceof Error || found === undefined) {
          throw found ?? vscode.FileSystemError.FileNotFound(u.path);
        }
        return found;
      },
      readFile: async (u: FakeUri) => {
        reads.push(u.path);
        return contents.get(u.path) ?? new Uint8Array();
      },
    };
  });

  afterEach(() => {
    delete workspace.fs;
    delete workspace.getWorkspaceFolder;
    uriClass.parse = originalParse;
  });

  it('plans a file by its stat and reads it only when it is sent', async () => {
    stats.set('/w/figures.md', { type: vscode.FileType.File, size: 5 });
    contents.set('/w/figures.md', new TextEncoder().encode('hello'));
    const plan = await planVirtualUpload([uri('/w/figures.md') as unknown as vscode.Uri]);
    assert.deepStrictEqual(
      plan.files.map((f) => [f.name, f.bytes]),
      [['figures.md', 5]],
    );
    assert.deepStrictEqual(reads, [], 'read before it is sent');
    assert.strictEqual(new TextDecoder().decode(await plan.files[0].read?.()), 'hello');
  });

  it('refuses past the 512 MB limit and past the in-memory limit from the stat, reading nothing', async () => {
    stats.set('/w/huge.bin', { type: vscode.FileType.File, size: MAX_UPLOAD_BYTES + 1 });
    stats.set('/w/big.bin', { type: vscode.FileType.File, size: MAX_IN_MEMORY_BYTES + 1 });
    stats.set('/w/folder', { type: vscode.FileType.Directory, size: 0 });
    const plan = await planVirtualUpload([
      uri('/w/huge.bin'),
      uri('/w/big.bin'),
      uri('/w/folder'),
      uri('/w/gone.md'),
    ] as unknown as vscode.Uri[]);
    assert.deepStrictEqual(plan.files, []);
    assert.deepStrictEqual(
      plan.refused.map((r) => r.reason),
      ['too_large', 'too_large_in_memory', 'not_a_file', 'unreadable'],
    );
    assert.deepStrictEqual(reads, []);
  });

  it('fails a file that grew past the in-memory limit after it was planned', async () => {
    stats.set('/w/grows.bin', { type: vscode.FileType.File, size: 1 });
    const plan = await planVirtualUpload([uri('/w/grows.bin') as unknown as vscode.Uri]);
    contents.set('/w/grows.bin', new Uint8Array(MAX_IN_MEMORY_BYTES + 1));
    await assert.rejects(plan.files[0].read?.() ?? Promise.resolve(), (err: unknown) => err instanceof ApiError);
  });

  it('records each upload with its workspace folder, relative path and the hash of what was sent', async () => {
    const folder = uri('/w');
    workspace.getWorkspaceFolder = (u: FakeUri) => (u.path.startsWith('/w/') ? { uri: folder } : undefined);
    uriClass.parse = (text: string) => uri(text.replace('vscode-remote://host', ''));
    const added: unknown[] = [];
    const index = { addUploads: async (o: unknown[]) => void added.push(...o) } as unknown as LocalFileIndex;
    const file = { path: 'vscode-remote://host/w/docs/figures.md', bytes: 5, read: () => undefined };
    const edited = { path: 'vscode-remote://host/w/docs/edited.md', bytes: 5, read: () => undefined };
    for (const name of ['figures', 'edited']) {
      stats.set(`/w/docs/${name}.md`, { type: vscode.FileType.File, size: 5, mtime: 1 } as never);
      contents.set(`/w/docs/${name}.md`, new TextEncoder().encode('hello'));
    }
    const stamps = await stampFiles([file.path, edited.path]);
    // Edited while the upload ran: its hash cannot be trusted to be what was sent.
    stats.set('/w/docs/edited.md', { type: vscode.FileType.File, size: 5, mtime: 2 } as never);
    await recordUploads(
      index,
      [
        { file, record: { id: 'file_1' } },
        { file: edited, record: { id: 'file_2' } },
      ],
      stamps,
    );
    assert.strictEqual(added.length, 2);
    const [origin, changed] = added as Record<string, unknown>[];
    assert.deepStrictEqual(
      [origin.fileId, origin.uri, origin.workspaceFolder, origin.relativePath, origin.sha256, origin.bytes],
      [
        'file_1',
        file.path,
        'vscode-remote://host/w',
        'docs/figures.md',
        // sha256("hello")
        '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
        5,
      ],
    );
    assert.strictEqual(changed.sha256, '', 'a file edited during the upload has no trusted hash');
  });
});

describe('upload/web: the twins of the disk-only parts', () => {
  it('plans no path (there is no disk) and lists no folder', async () => {
    const plan = await planUpload(['/etc/passwd'], { expandFolders: true });
    assert.deepStrictEqual(plan.files, []);
    assert.deepStrictEqual(
      plan.refused.map((r) => [r.path, r.reason]),
      [['/etc/passwd', 'unreadable']],
    );
    assert.deepStrictEqual(await listFolder('/etc', 10), []);
  });

  it('refuses an archive before anything is sent', async () => {
    let sent = 0;
    const client = { uploadFile: async () => void sent++ } as never;
    await assert.rejects(uploadArchive(client, [], 'task_input'), /nothing was sent/);
    assert.strictEqual(sent, 0);
  });

  it('names files by the last part of a URI path', () => {
    assert.strictEqual(basename('/w/docs/figures.md'), 'figures.md');
    assert.strictEqual(basename('/w/docs/'), 'docs');
  });

  it('counts a name in UTF-8 bytes without Buffer', () => {
    assert.strictEqual(utf8Bytes('Grüße'), Buffer.byteLength('Grüße', 'utf8'));
  });
});
