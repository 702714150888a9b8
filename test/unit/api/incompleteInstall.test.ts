import * as assert from 'node:assert/strict';
import { errorFromTransport, INCOMPLETE_INSTALL } from '../../../src/api/errors';
import { describeError } from '../../../src/api/errorSentences';

describe('api/errors: a broken install is not a network failure', () => {
  const guardError = () =>
    Object.assign(
      new Error(
        'The Agent Runtime extension is incomplete: dist/undici.js is missing or broken (Cannot find module). Reinstall the extension.',
      ),
      { code: INCOMPLETE_INSTALL },
    );

  it('keeps the guard\'s sentence, as a refusal before anything was sent (no retry, no "unreachable")', () => {
    const err = errorFromTransport(guardError(), { origin: 'https://agents.example', callerAborted: false });
    assert.equal(err.kind, 'validation');
    assert.equal(err.code, INCOMPLETE_INSTALL);
    assert.match(describeError(err), /Reinstall the extension/);
    assert.doesNotMatch(describeError(err), /network|connect/i);
  });

  it('still maps a real connection failure to one', () => {
    const err = errorFromTransport(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), {
      origin: 'https://agents.example',
      callerAborted: false,
    });
    assert.equal(err.kind, 'connection');
  });
});
