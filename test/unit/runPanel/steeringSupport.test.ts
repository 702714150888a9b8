// Steering "not offered" is remembered per service: the first mark is the one to tell the user,
// and a run panel of that service (open, or opened later) is told steering=false; another
// service's panel is not. The session reads a real run from the reference runtime.
import * as assert from 'node:assert';
import { ApiClient } from '../../../src/api/client';
import { RunEventSubscription } from '../../../src/api/events';
import { describeError, isApiError } from '../../../src/api/errors';
import { silentLogger } from '../../../src/api/logger';
import { DEFAULT_UI_STRINGS, type HostMessage } from '../../../src/runPanel/protocol';
import { RunSession } from '../../../src/runPanel/runSession';
import { SteeringSupport } from '../../../src/runPanel/steeringSupport';
import { startRuntime, type RuntimeHandle } from '../../runtime';
import { until } from './fakes';

describe('runPanel/steeringSupport', () => {
  it('remembers "not offered" per service and says first only once', () => {
    const support = new SteeringSupport();
    const heard: string[] = [];
    const stop = support.onNotOffered((s) => heard.push(s));
    assert.strictEqual(support.offered('http://a'), true);
    assert.strictEqual(support.markNotOffered('http://a'), true);
    assert.strictEqual(support.markNotOffered('http://a'), false, 'the user is told once');
    assert.strictEqual(support.offered('http://a'), false);
    assert.strictEqual(support.offered('http://b'), true, 'another service keeps its buttons');
    stop();
    support.markNotOffered('http://b');
    assert.deepStrictEqual(heard, ['http://a']);
  });

  describe('with run sessions', function () {
    this.timeout(30_000);
    let runtime: RuntimeHandle;
    let client: ApiClient;
    const sessions: RunSession[] = [];

    beforeEach(async () => {
      runtime = await startRuntime();
      client = new ApiClient({ baseUrl: runtime.baseUrl, getApiKey: async () => runtime.apiKey });
    });

    afterEach(async () => {
      for (const s of sessions.splice(0)) s.dispose();
      await client.dispose();
      await runtime.close();
    });

    function watch(runId: string, service: string, support: SteeringSupport) {
      const posted: HostMessage[] = [];
      const session = new RunSession({
        runId,
        client: () => client,
        subscribe: (after, onState, signal) => new RunEventSubscription(client, runId, { after, signal, onState, logger: silentLogger }),
        post: (m) => posted.push(m),
        strings: DEFAULT_UI_STRINGS,
        describeError,
        isSignInError: (err) => isApiError(err, 'authentication'),
        log: silentLogger,
        channel: { intervalMs: 5 },
        service,
        steering: support,
      });
      sessions.push(session);
      session.start();
      session.webviewReady();
      return posted;
    }

    const steeringOf = (posted: HostMessage[]) => {
      const infos = posted.flatMap((m) => (m.type === 'info' ? [m.info] : m.type === 'reset' ? [m.info] : []));
      return infos[infos.length - 1]?.steering;
    };

    it('tells open and new panels of that service, and not those of another', async () => {
      const support = new SteeringSupport();
      const runId = await runtime.createSyntheticRun({ events: 5, terminal: 'completed' });
      const open = watch(runId, client.baseUrl, support);
      const other = watch(runId, 'https://other.example.com', support);
      await until(() => open.some((m) => m.type === 'info'), 'the header is read', 20);
      assert.notStrictEqual(steeringOf(open), false);
      support.markNotOffered(client.baseUrl);
      await until(() => steeringOf(open) === false, 'the open panel hides steering', 20);
      const later = watch(runId, client.baseUrl, support);
      await until(() => steeringOf(later) === false, 'a new panel starts without steering', 20);
      assert.notStrictEqual(steeringOf(other), false, "another service's panel keeps steering");
    });

    it('a server without steering answers cancel "not offered", which hides steering in its panel', async () => {
      await runtime.close();
      await client.dispose();
      runtime = await startRuntime({ faults: { noSteering: true } });
      client = new ApiClient({ baseUrl: runtime.baseUrl, getApiKey: async () => runtime.apiKey });
      const support = new SteeringSupport();
      const runId = await runtime.createSyntheticRun({ events: 5, terminal: null });
      const panel = watch(runId, client.baseUrl, support);
      // What reportUnsupported does with the answer of the cancel command.
      const err = await client.cancelRun(runId).then(() => assert.fail('cancel is not offered'), (e: unknown) => e);
      assert.ok(isApiError(err, 'not_supported'), describeError(err));
      assert.strictEqual(support.markNotOffered(client.baseUrl), true);
      await until(() => steeringOf(panel) === false, 'the panel hides steering', 20);
    });
  });
});
