// Files that are not on the extension host's disk: a FileSystemProvider registered here (the
// stand-in for a virtual workspace) holds a file; Upload and Attach reads it through
// vscode.workspace.fs, and the task gets it as an attachment with exactly its bytes. Where
// Apply may write on such a file system (the web build's rule, src/reviewUi/virtualTarget.ts):
// an existing file inside the folder, never a link.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { TaskRecord } from '../../src/api/types';
import { checkVirtualTarget } from '../../src/reviewUi/virtualTarget';
import { directClient, extensionApi, signInForTests } from './support';

const SCHEME = 'agent-runtime-test-memfs';

/** Just enough of a file system: flat files below folders that always exist. */
class MemFs implements vscode.FileSystemProvider {
  private readonly files = new Map<string, { data: Uint8Array; mtime: number }>();
  /** Paths that stat as a link to a file (whose target the provider does not say). */
  readonly links = new Set<string>();
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    const file = this.files.get(uri.path);
    if (file) {
      const type = this.links.has(uri.path)
        ? vscode.FileType.File | vscode.FileType.SymbolicLink
        : vscode.FileType.File;
      return { type, ctime: file.mtime, mtime: file.mtime, size: file.data.byteLength };
    }
    if ([...this.files.keys()].some((p) => p.startsWith(`${uri.path.replace(/\/$/, '')}/`))) {
      return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    }
    throw vscode.FileSystemError.FileNotFound(uri);
  }
  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(): void {
    // folders exist implicitly
  }
  readFile(uri: vscode.Uri): Uint8Array {
    const file = this.files.get(uri.path);
    if (!file) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    return file.data;
  }
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    this.files.set(uri.path, { data: content, mtime: Date.now() });
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }
  delete(uri: vscode.Uri): void {
    this.files.delete(uri.path);
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions('rename');
  }
}

describe('uploads from a workspace file system that is not the disk', () => {
  let registration: vscode.Disposable | undefined;
  before(async () => {
    await extensionApi();
    await signInForTests();
    registration = vscode.workspace.registerFileSystemProvider(SCHEME, new MemFs(), { isCaseSensitive: true });
  });
  after(() => registration?.dispose());

  it('uploads a file of a registered FileSystemProvider and attaches it to a new task', async () => {
    const uri = vscode.Uri.from({ scheme: SCHEME, path: '/project/brief.md' });
    const bytes = Buffer.from(`# Brief from ${SCHEME}\n\nNot on any disk: ${'é'.repeat(3)} ${Date.now()}\n`, 'utf8');
    await vscode.workspace.fs.writeFile(uri, bytes);
    const client = directClient();
    try {
      const objective = `Read the virtual brief ${Date.now()}`;
      const task = await vscode.commands.executeCommand<TaskRecord>('agentRuntime.uploadAndCreateTask', uri, [uri], {
        objective,
      });
      assert.ok(task && task.id.startsWith('task_'), `no task returned: ${JSON.stringify(task)}`);
      const stored = await client.getTask(task.id);
      assert.strictEqual(stored.objective, objective);
      const attachments = stored.attachments ?? [];
      assert.strictEqual(attachments.length, 1);
      const file = await client.getFile(attachments[0].fileId);
      assert.strictEqual(file.filename, 'brief.md');
      assert.strictEqual(file.bytes, bytes.length);
      const content = await client.readFileContent(file.id);
      assert.strictEqual(Buffer.from(content.content).toString('hex'), bytes.toString('hex'));
    } finally {
      await client.dispose();
    }
  });

  it('refuses a file over the in-memory limit before sending anything', async () => {
    const uri = vscode.Uri.from({ scheme: SCHEME, path: '/project/huge.bin' });
    await vscode.workspace.fs.writeFile(uri, new Uint8Array(64 * 1024 * 1024 + 1));
    const client = directClient();
    try {
      const before = await countFiles(client);
      const result = await vscode.commands.executeCommand<unknown>('agentRuntime.uploadFiles', uri, [uri], {
        purpose: 'dataset',
      });
      assert.strictEqual(result, undefined);
      assert.strictEqual(await countFiles(client), before);
    } finally {
      await client.dispose();
      await vscode.workspace.fs.delete(uri);
    }
  });
});

describe('where Apply may write in a workspace that is not the disk', () => {
  // The rule the web build applies to every workspace folder, and the desktop to a virtual one
  // (src/reviewUi/virtualTarget.ts), against a real provider. (Adding a folder of this scheme to
  // the test window would make it a multi-root workspace and restart the extension host.)
  let registration: vscode.Disposable | undefined;
  const memFs = new MemFs();
  const folder = vscode.Uri.from({ scheme: `${SCHEME}-apply`, path: '/virtual-project' });
  const file = (path: string) => vscode.Uri.joinPath(folder, path);

  before(async () => {
    registration = vscode.workspace.registerFileSystemProvider(folder.scheme, memFs, { isCaseSensitive: true });
    await vscode.workspace.fs.writeFile(file('src/notes.md'), new TextEncoder().encode('notes\n'));
    await vscode.workspace.fs.writeFile(file('linked.md'), new TextEncoder().encode('linked\n'));
    memFs.links.add(file('linked.md').path);
  });
  after(() => registration?.dispose());

  it('allows an existing file inside the folder', async () => {
    assert.deepStrictEqual(await checkVirtualTarget(folder, file('src/notes.md')), { ok: true });
  });

  it('refuses a link, since workspace.fs cannot say where it points', async () => {
    const check = await checkVirtualTarget(folder, file('linked.md'));
    assert.strictEqual(check.ok, false);
    assert.match(check.ok ? '' : check.message, /linked\.md is a link/);
  });

  it('refuses a file outside the folder, another scheme or authority, and a path with ..', async () => {
    const outside = [
      folder.with({ path: '/virtual-project-2/notes.md' }),
      folder.with({ path: '/elsewhere/notes.md' }),
      folder.with({ path: '/virtual-project/src/../../elsewhere/notes.md' }),
      folder.with({ authority: 'other' }).with({ path: '/virtual-project/src/notes.md' }),
      vscode.Uri.file('/virtual-project/src/notes.md'),
      folder,
    ];
    for (const target of outside) {
      const check = await checkVirtualTarget(folder, target);
      assert.strictEqual(check.ok, false, target.toString());
      assert.match(check.ok ? '' : check.message, /outside the workspace folder/, target.toString());
    }
  });

  it('says a missing file is gone and a folder is not a file', async () => {
    const gone = await checkVirtualTarget(folder, file('src/deleted.md'));
    assert.match(gone.ok ? '' : gone.message, /no longer in the workspace/);
    const notFile = await checkVirtualTarget(folder, file('src'));
    assert.match(notFile.ok ? '' : notFile.message, /src is not a file/);
    const noFolder = await checkVirtualTarget(
      folder.with({ path: '/missing' }),
      file('src/notes.md').with({ path: '/missing/a.md' }),
    );
    assert.match(noFolder.ok ? '' : noFolder.message, /is no longer there/);
  });
});

async function countFiles(client: ReturnType<typeof directClient>): Promise<number> {
  let n = 0;
  for await (const file of client.iterateFiles({ limit: 100 })) {
    if (file.id) {
      n++;
    }
  }
  return n;
}
