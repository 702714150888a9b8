// Files that are not on the extension host's disk: a FileSystemProvider registered here (the
// stand-in for a virtual workspace) holds a file; Upload and Attach reads it through
// vscode.workspace.fs, and the task gets it as an attachment with exactly its bytes.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { TaskRecord } from '../../src/api/types';
import { directClient, extensionApi, signInForTests } from './support';

const SCHEME = 'agent-runtime-test-memfs';

/** Just enough of a file system: flat files below folders that always exist. */
class MemFs implements vscode.FileSystemProvider {
  private readonly files = new Map<string, { data: Uint8Array; mtime: number }>();
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    const file = this.files.get(uri.path);
    if (file) {
      return { type: vscode.FileType.File, ctime: file.mtime, mtime: file.mtime, size: file.data.byteLength };
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

async function countFiles(client: ReturnType<typeof directClient>): Promise<number> {
  let n = 0;
  for await (const file of client.iterateFiles({ limit: 100 })) {
    if (file.id) {
      n++;
    }
  }
  return n;
}
