// The Idempotency-Key of a send follows what is sent: a retry of the same body reuses it, a body
// changed in between (an edited comment) gets a new one, a settled send is not replayed.
import * as assert from 'node:assert';
import { MAX_PENDING_SENDS, SendKeys } from '../../../src/reviewTalk/sendKeys';

const body = (text: string) => ({ instructions: 'Keep the tone.', reviewComments: [{ id: 'rc_1', body: text }] });

describe('the key of a send of review comments', () => {
  it('is the same for a retry of the same body', () => {
    const keys = new SendKeys();
    const first = keys.keyFor('run_1', 'fork', body('Say it plainly.'));
    const retry = keys.keyFor('run_1', 'fork', body('Say it plainly.'));
    assert.strictEqual(retry.key, first.key);
  });

  it('is new when the person edited a comment before the retry', () => {
    const keys = new SendKeys();
    const first = keys.keyFor('run_1', 'fork', body('Say it plainly.'));
    const edited = keys.keyFor('run_1', 'fork', body('Say it more plainly.'));
    assert.notStrictEqual(edited.key, first.key);
  });

  it('is new for another run or another way with the same comments', () => {
    const keys = new SendKeys();
    const fork = keys.keyFor('run_1', 'fork', body('x'));
    assert.notStrictEqual(keys.keyFor('run_1', 'resume', body('x')).key, fork.key);
    assert.notStrictEqual(keys.keyFor('run_2', 'fork', body('x')).key, fork.key);
  });

  it('is not reused once the send succeeded', () => {
    const keys = new SendKeys();
    const first = keys.keyFor('run_1', 'fork', body('x'));
    keys.settle(first.digest);
    assert.notStrictEqual(keys.keyFor('run_1', 'fork', body('x')).key, first.key);
  });

  it(`remembers at most ${MAX_PENDING_SENDS} unsettled sends`, () => {
    const keys = new SendKeys();
    for (let i = 0; i < MAX_PENDING_SENDS + 5; i++) {
      keys.keyFor('run_1', 'fork', body(String(i)));
    }
    assert.strictEqual(keys.size, MAX_PENDING_SENDS);
  });
});
