// The README's curl story, walked with the real curl binary against a runtime on a free port.
import * as assert from 'node:assert';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { type RuntimeHandle, startRuntime } from '../index';
import { tempDir } from './runtimeTestKit';

const run = promisify(execFile);

describe('runtime: the curl story', () => {
  let rt: RuntimeHandle;
  let work: string;
  before(async () => {
    rt = await startRuntime({ apiKeys: ['curl-key'] });
    work = tempDir();
  });
  after(async () => {
    await rt.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const curl = async (...args: string[]): Promise<string> => {
    const { stdout } = await run('curl', ['-sS', '--fail-with-body', '-H', 'Authorization: Bearer curl-key', ...args]);
    return stdout;
  };

  it('uploads, creates a task, follows events with after, pages artifacts and downloads one', async () => {
    const input = path.join(work, 'notes.md');
    fs.writeFileSync(input, '# Notes\n\nCurl can do all of this.\n');
    const file = JSON.parse(
      await curl('-F', 'purpose=task_input', '-F', `file=@${input}`, `${rt.baseUrl}/v1/files`),
    ) as { id: string };
    assert.match(file.id, /^file_/);

    const body = JSON.stringify({
      objective: 'Summarise the notes',
      attachments: [{ type: 'document', fileId: file.id }],
    });
    const taskArgs = [
      '-H',
      'Content-Type: application/json',
      '-H',
      'Idempotency-Key: 5b0b8f3e-curl-story',
      '-d',
      body,
      `${rt.baseUrl}/v1/tasks`,
    ];
    const task = JSON.parse(await curl(...taskArgs)) as { id: string; run_id: string };
    const again = JSON.parse(await curl(...taskArgs)) as { id: string };
    assert.strictEqual(again.id, task.id, 'the same Idempotency-Key gives the same task');

    const full = await curl('-N', '-H', 'Accept: text/event-stream', `${rt.baseUrl}/v1/runs/${task.run_id}/events`);
    const ids = [...full.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    assert.ok(full.includes('event: plan.created'));
    assert.ok(full.trimEnd().endsWith('"status":"completed"}'));
    const resumed = await curl('-N', `${rt.baseUrl}/v1/runs/${task.run_id}/events?after=5`);
    assert.deepStrictEqual(
      [...resumed.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])),
      ids.filter((id) => id > 5),
    );

    const names: string[] = [];
    let url = `${rt.baseUrl}/v1/runs/${task.run_id}/artifacts?limit=1`;
    let artifactFileId = '';
    for (;;) {
      const page = JSON.parse(await curl(url)) as {
        data: { name: string; file_id: string }[];
        has_more: boolean;
        next_cursor: string | null;
      };
      names.push(...page.data.map((a) => a.name));
      if (page.data[0]?.name === 'report.md') {
        artifactFileId = page.data[0].file_id;
      }
      if (!page.has_more) {
        break;
      }
      url = `${rt.baseUrl}/v1/runs/${task.run_id}/artifacts?limit=1&after=${page.next_cursor}`;
    }
    assert.deepStrictEqual(names.sort(), ['changes.patch', 'notes.md', 'report.md', 'summary.json']);

    const { stdout } = await run(
      'curl',
      [
        '-sS',
        '-f',
        '-O',
        '-J',
        '-H',
        'Authorization: Bearer curl-key',
        `${rt.baseUrl}/v1/files/${artifactFileId}/content`,
      ],
      { cwd: work },
    );
    assert.strictEqual(stdout, '');
    const report = fs.readFileSync(path.join(work, 'report.md'), 'utf8');
    assert.match(report, /^# Report: Summarise the notes/);
    assert.match(report, /- Notes/);
  });

  it('shows curl the status and error body of a bad request', async () => {
    const { stdout } = await run('curl', [
      '-s',
      '-w',
      '\\n%{http_code}',
      '-H',
      'Authorization: Bearer curl-key',
      '-F',
      'purpose=wrong',
      '-F',
      'file=@/dev/null',
      `${rt.baseUrl}/v1/files`,
    ]);
    const [body, status] = stdout.split('\n');
    assert.strictEqual(status, '400');
    assert.strictEqual(JSON.parse(body).error.param, 'purpose');
  });
});
