// A hostile or broken server's records: list items that are not records are dropped (one warning
// per page), and the text fields the views show are strings or absent, whatever the server sent.
import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { isApiError } from '../../../src/api/errors';
import { CapturingLogger, json, type RecordedRequest, rejectionOf, startRecordingServer } from './fixtures';
import { ApiClient } from './transportUnderTest';

async function withServer(
  reply: (req: RecordedRequest, res: ServerResponse) => void,
  body: (client: ApiClient, logger: CapturingLogger) => Promise<void>,
): Promise<void> {
  const server = await startRecordingServer(reply);
  const logger = new CapturingLogger();
  const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'secret-key', logger, maxRetries: 0 });
  try {
    await body(client, logger);
  } finally {
    await client.dispose();
    await server.close();
  }
}

const HUGE = 'x'.repeat(100_000);

describe('api/parse against a hostile server', () => {
  it('drops list items that are not objects or have no non-empty string id, and warns once per page without the values', async () => {
    const data = [
      null,
      7,
      'task_str',
      [],
      { id: 42 },
      { id: '' },
      { objective: HUGE },
      { id: 'task_ok', objective: 'fine' },
      { id: 'task_ok2' },
    ];
    await withServer(
      (_req, res) => json(res, 200, { object: 'list', data, has_more: false }),
      async (client, logger) => {
        const page = await client.listTasks();
        assert.deepEqual(
          page.data.map((t) => t.id),
          ['task_ok', 'task_ok2'],
        );
        const warnings = logger.lines.filter((l) => /skipped|dropped/i.test(l));
        assert.equal(warnings.length, 1, logger.lines.join('\n'));
        assert.match(warnings[0], /7/); // how many were dropped
        assert.ok(
          logger.lines.every((l) => l.length < 1000),
          'a huge value was echoed into the log',
        );
      },
    );
  });

  it('makes the displayed text fields strings or undefined and bytes a number or undefined, keeping unknown fields', async () => {
    const files = [
      {
        id: 'file_1',
        filename: { evil: true },
        content_type: ['a'],
        purpose: null,
        bytes: '12',
        created_at: 5,
        custom: { kept: 1 },
      },
      { id: 'file_2', filename: 123, bytes: 40 },
    ];
    await withServer(
      (req, res) => {
        if (req.url.startsWith('/v1/files')) {
          return json(res, 200, { object: 'list', data: files, has_more: false });
        }
        if (req.url.startsWith('/v1/tasks')) {
          return json(res, 200, {
            object: 'list',
            data: [{ id: 'task_1', status: 3, objective: { x: 1 }, run_id: false }],
            has_more: false,
          });
        }
        if (req.url.startsWith('/v1/runs/run_1/artifacts')) {
          return json(res, 200, {
            object: 'list',
            data: [{ id: 'art_1', name: ['n'], bytes: Infinity, file_id: {}, content_type: 1 }],
            has_more: false,
          });
        }
        return json(res, 200, {
          object: 'list',
          data: [{ id: 'run_1', status: { s: 1 }, task_id: [] }],
          has_more: false,
        });
      },
      async (client) => {
        const [f1, f2] = (await client.listFiles()).data;
        assert.equal(f1.filename, undefined);
        assert.equal(f1.content_type, undefined);
        assert.equal(f1.purpose, undefined);
        assert.equal(f1.bytes, undefined);
        assert.equal(f1.created_at, '5');
        assert.deepEqual(f1.custom, { kept: 1 });
        assert.equal(f2.filename, '123');
        assert.equal(f2.bytes, 40);
        const [task] = (await client.listTasks()).data;
        assert.equal(task.status, '3');
        assert.equal(task.objective, undefined);
        assert.equal(task.run_id, undefined);
        const [art] = (await client.listRunArtifacts('run_1')).data;
        assert.equal(art.name, undefined);
        assert.equal(art.bytes, undefined);
        assert.equal(art.file_id, undefined);
        assert.equal(art.content_type, '1');
        const [run] = (await client.listRuns()).data;
        assert.equal(run.status, undefined);
        assert.equal(run.task_id, undefined);
      },
    );
  });

  it('a single record without a string id is a protocol error; its other fields are made safe too', async () => {
    await withServer(
      (req, res) => {
        if (req.url === '/v1/tasks/task_num') {
          return json(res, 200, { id: 12, objective: 'x' });
        }
        if (req.url === '/v1/runs/run_null') {
          return json(res, 200, null);
        }
        if (req.url === '/v1/files/file_arr') {
          return json(res, 200, [{ id: 'file_arr' }]);
        }
        return json(res, 200, { id: 'file_ok', filename: { toString: 'no' }, bytes: -1 });
      },
      async (client) => {
        assert.ok(isApiError(await rejectionOf(client.getTask('task_num')), 'protocol'));
        assert.ok(isApiError(await rejectionOf(client.getRun('run_null')), 'protocol'));
        assert.ok(isApiError(await rejectionOf(client.getFile('file_arr')), 'protocol'));
        const file = await client.getFile('file_ok');
        assert.equal(file.filename, undefined);
        assert.equal(file.bytes, undefined);
      },
    );
  });
});
