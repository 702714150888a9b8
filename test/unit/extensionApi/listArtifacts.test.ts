// Every list in src/ is walked by the one bounded pager (src/api/pagination.ts): the extension
// API's listArtifacts against a server whose cursors never end, and a scan of src/ that finds no
// other code reading a page's cursor.
import '../views/vscodeStub';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_MAX_PAGES } from '../../../src/api/pagination';
import { createExtensionApi } from '../../../src/extensionApi/extensionApi';
import { type RuntimeWithClient, startRuntimeWithClient } from '../api/fixtures';

const SRC = path.resolve(__dirname, '../../../../src');
/** The pager itself, the page parser and the types: the only code that reads a page's cursor. */
const PAGER_FILES = new Set(['api/pagination.ts', 'api/parse.ts', 'api/types.ts']);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('extensionApi: lists through the one bounded pager', function () {
  this.timeout(60_000);
  let rt: RuntimeWithClient | undefined;
  afterEach(async () => {
    await rt?.close();
    rt = undefined;
  });

  function api(client: RuntimeWithClient['client']) {
    const never = () => ({ dispose() {} });
    return createExtensionApi({
      client: () => client,
      isSignedIn: () => true,
      runs: { onDidChange: never },
      approvals: { onDidChange: never },
      startTask: async () => undefined,
      openRunPanel: async () => undefined,
    }).api;
  }

  it('listArtifacts ends against a server whose empty page always has a fresh cursor', async () => {
    rt = await startRuntimeWithClient({ hostile: { freshCursor: '/v1/runs' }, eventDelayMs: 0 });
    const runId = await rt.runtime.createSyntheticRun({ events: 2, terminal: 'completed' });
    const requests = rt.runtime.countRequests('GET', /\/artifacts/);
    assert.deepEqual(await api(rt.client).listArtifacts(runId), [], 'no artifacts, and the walk ended');
    requests.stop();
    assert.ok(requests.count <= 2, `${requests.count} requests for an empty list`);
  });

  it('listArtifacts stops at its cap when every page has items and a fresh cursor', async () => {
    let calls = 0;
    const client = {
      listRunArtifacts: async () => {
        calls++;
        return {
          object: 'list' as const,
          data: [{ id: `art_${calls}`, run_id: 'run_a', name: 'a.txt', created_at: '2026-01-01T00:00:00Z' }],
          has_more: true,
          next_cursor: `cursor_${calls}`,
        };
      },
    } as never;
    const listed = await api(client).listArtifacts('run_a', { limit: 5_000 });
    assert.ok(listed.length > 0);
    assert.ok(calls <= DEFAULT_MAX_PAGES, `${calls} requests`);
  });

  it('no code in src/ reads a page cursor outside the pager', () => {
    const found: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const relative = path.relative(SRC, file).split(path.sep).join('/');
      if (PAGER_FILES.has(relative)) {
        continue;
      }
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          // A field read (`page.next_cursor`, `page['has_more']`) or a destructuring (`{ next_cursor } =`).
          if (
            /\.\s*(next_cursor|has_more)\b|\[\s*['"`](next_cursor|has_more)|\{[^}]*\b(next_cursor|has_more)\b[^}]*\}\s*=[^=>]/.test(
              line,
            )
          ) {
            found.push(`${relative}:${i + 1}: ${line.trim()}`);
          }
        });
    }
    assert.ok(sourceFiles(SRC).length > 100, 'the scan found the sources');
    assert.deepEqual(found, [], 'walk lists with paginate() or takePage() (src/api/pagination.ts)');
  });
});
