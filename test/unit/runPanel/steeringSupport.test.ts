// Steering "not offered" is remembered per service: the first mark is the one to tell the user,
// and a run panel of that service (open, or opened later) is told steering=false; another
// service's panel is not. The session reads a real run from the reference runtime.
import * as assert from 'node:assert';
import { isApiError } from '../../../src/api/errors';
import { describeError } from '../../../src/api/errorSentences';
import type { HostMessage } from '../../../src/runPanel/protocol';
import { SteeringSupport } from '../../../src/runPanel/steeringSupport';
import { until } from './fakes';
import { SessionRig } from './sessionFixture';

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
    const rig = new SessionRig();

    beforeEach(() => rig.start());
    afterEach(() => rig.stop());

    const watch = (runId: string, service: string, support: SteeringSupport) =>
      rig.watch(runId, { service, steering: support }).posted;

    const steeringOf = (posted: HostMessage[]) => {
      const infos = posted.flatMap((m) => (m.type === 'info' ? [m.info] : m.type === 'reset' ? [m.info] : []));
      return infos[infos.length - 1]?.steering;
    };

    it('tells open and new panels of that service, and not those of another', async () => {
      const { runtime, client } = rig;
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
      await rig.stop();
      await rig.start({ faults: { noSteering: true } });
      const { runtime, client } = rig;
      const support = new SteeringSupport();
      const runId = await runtime.createSyntheticRun({ events: 5, terminal: null });
      const panel = watch(runId, client.baseUrl, support);
      // What reportUnsupported does with the answer of the cancel command.
      const err = await client.cancelRun(runId).then(
        () => assert.fail('cancel is not offered'),
        (e: unknown) => e,
      );
      assert.ok(isApiError(err, 'not_supported'), describeError(err));
      assert.strictEqual(support.markNotOffered(client.baseUrl), true);
      await until(() => steeringOf(panel) === false, 'the panel hides steering', 20);
    });
  });
});
