// The sandbox CLI: starts on the port asked for, prints URL and keys, seeds once, stops on SIGTERM.
import * as assert from 'node:assert';
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir, waitFor } from './runtimeTestKit';

const CLI = path.join(__dirname, '..', 'cli.js');

interface Started {
  child: ChildProcess;
  output: () => string;
  baseUrl: string;
}

async function startCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Started> {
  const child = spawn(process.execPath, [CLI, '--port', '0', '--quiet', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  await waitFor(
    () => /listening on (http:\/\/\S+)/.test(out) || child.exitCode !== null,
    'the sandbox to start',
    20000,
  );
  const found = /listening on (http:\/\/\S+)/.exec(out);
  if (!found) {
    throw new Error(`sandbox did not start: ${out}`);
  }
  return { child, output: () => out, baseUrl: found[1] };
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) {
    return child.exitCode;
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

describe('runtime: sandbox CLI', function () {
  this.timeout(30000);
  let dataDir: string;
  beforeEach(() => {
    dataDir = tempDir();
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('prints the base URL and keys, serves seeded files and a finished task, and stops on SIGTERM', async () => {
    const sandbox = await startCli(['--data-dir', dataDir, '--key', 'cli-key', '--admin-key', 'cli-admin']);
    try {
      assert.match(sandbox.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.match(sandbox.output(), /API key:\s+cli-key/);
      assert.match(sandbox.output(), /Admin key:\s+cli-admin/);
      const auth = { Authorization: 'Bearer cli-key' };
      const files = (await (await fetch(`${sandbox.baseUrl}/v1/files`, { headers: auth })).json()) as {
        data: { filename: string }[];
      };
      assert.deepStrictEqual(files.data.map((f) => f.filename).sort(), ['meeting-notes.md', 'sales.csv', 'welcome.md']);
      const tasks = (await (await fetch(`${sandbox.baseUrl}/v1/tasks`, { headers: auth })).json()) as {
        data: { status: string; run_id: string }[];
      };
      assert.deepStrictEqual(
        tasks.data.map((t) => t.status),
        ['awaiting_approval', 'completed'],
        'newest first: the run waiting for approval, the finished one',
      );
      const artifacts = (await (
        await fetch(`${sandbox.baseUrl}/v1/runs/${tasks.data[1].run_id}/artifacts`, { headers: auth })
      ).json()) as { data: { name: string }[] };
      assert.deepStrictEqual(artifacts.data.map((a) => a.name).sort(), [
        'changes.patch',
        'meeting-notes.md',
        'report.md',
        'summary.json',
        'welcome.md',
      ]);
      const pending = (await (
        await fetch(`${sandbox.baseUrl}/v1/approvals?status=pending`, { headers: auth })
      ).json()) as { data: { run_id: string; expires_at: string }[] };
      assert.deepStrictEqual(
        pending.data.map((a) => a.run_id),
        [tasks.data[0].run_id],
        'the seeded run still waits after the seeding runtime stopped',
      );
      assert.ok(
        Date.parse(pending.data[0].expires_at) > Date.now() + 24 * 60 * 60 * 1000,
        'a long expiry, so a new user finds it',
      );
    } finally {
      assert.strictEqual(await stop(sandbox.child), 0, 'a clean exit');
    }
    const again = await startCli([
      '--data-dir',
      dataDir,
      '--key',
      'cli-key',
      '--approval-timeout',
      '60000',
      '--pace',
      '0',
    ]);
    try {
      const headers = { Authorization: 'Bearer cli-key' };
      const files = (await (await fetch(`${again.baseUrl}/v1/files`, { headers })).json()) as { data: unknown[] };
      assert.strictEqual(files.data.length, 3, 'seeded once per data dir, data kept');
      const body = JSON.stringify({ objective: 'Ask before writing' });
      const task = (await (
        await fetch(`${again.baseUrl}/v1/tasks`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body,
        })
      ).json()) as { run_id: string };
      let approval: { created_at: string; expires_at: string } | undefined;
      await waitFor(async () => {
        const page = (await (
          await fetch(`${again.baseUrl}/v1/approvals?run_id=${task.run_id}`, { headers })
        ).json()) as { data: { created_at: string; expires_at: string }[] };
        approval = page.data[0];
        return approval !== undefined;
      }, 'the approval request');
      assert.strictEqual(
        Date.parse(approval?.expires_at ?? '') - Date.parse(approval?.created_at ?? ''),
        60000,
        '--approval-timeout',
      );
    } finally {
      await stop(again.child);
    }
  });

  it('takes the key from AGENT_RUNTIME_SANDBOX_KEY and starts afresh with --reset', async () => {
    const first = await startCli(['--data-dir', dataDir], { AGENT_RUNTIME_SANDBOX_KEY: 'env-key' });
    const uploaded = new FormData();
    uploaded.append('purpose', 'task_input');
    uploaded.append('file', new Blob(['x']), 'extra.txt');
    await fetch(`${first.baseUrl}/v1/files`, {
      method: 'POST',
      headers: { Authorization: 'Bearer env-key' },
      body: uploaded,
    });
    await stop(first.child);
    assert.match(first.output(), /API key:\s+env-key/);

    const reset = await startCli(['--data-dir', dataDir, '--reset'], { AGENT_RUNTIME_SANDBOX_KEY: '' });
    try {
      const res = await fetch(`${reset.baseUrl}/v1/files`, { headers: { Authorization: 'Bearer sandbox-key' } });
      assert.strictEqual(res.status, 200, 'the default key');
      const files = (await res.json()) as { data: { filename: string }[] };
      assert.ok(!files.data.some((f) => f.filename === 'extra.txt'));
      assert.strictEqual(files.data.length, 3);
    } finally {
      await stop(reset.child);
    }
  });

  it('exits with a usage message on an unknown option', async () => {
    const child = spawn(process.execPath, [CLI, '--bogus'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.strictEqual(code, 2);
    assert.match(err, /unknown option --bogus/);
    assert.match(err, /Usage:/);
  });
});
