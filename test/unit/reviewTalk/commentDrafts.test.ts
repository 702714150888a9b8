// The comment store: drafts survive a reload (a new store on the same workspace state), are
// bounded per run and per workspace, and junk in the state is dropped item by item.
import * as assert from 'node:assert';
import { newCommentId } from '../../../src/reviewComments/reviewComments';
import {
  CommentDrafts,
  DRAFTS_KEY,
  MAX_STORED_COMMENTS,
  type StateMemento,
  type StoredComment,
} from '../../../src/reviewTalk/commentDrafts';

class MemoryState implements StateMemento {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    // A copy, as VS Code's state hands back what was stored as JSON.
    const value = this.values.get(key);
    return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

const draft = (runId = 'run_1', over: Partial<StoredComment> = {}): StoredComment => ({
  id: newCommentId(),
  runId,
  path: 'app.txt',
  side: 'agent',
  startLine: 1,
  endLine: 1,
  quote: 'x',
  body: 'Change it.',
  uri: 'agent-runtime-review:/run_1/agent/file_1/app.txt',
  state: 'draft',
  ...over,
});

describe('review comment drafts', () => {
  it('survive a reload, with edits, sends and deletes', async () => {
    const state = new MemoryState();
    const first = new CommentDrafts(state);
    const a = draft();
    const b = draft();
    assert.strictEqual(await first.add(a), undefined);
    assert.strictEqual(await first.add(b), undefined);
    await first.update(a.id, { body: 'Edited.' });
    await first.update(b.id, { state: 'sent', followUpRunId: 'run_2' });
    const reloaded = new CommentDrafts(state);
    assert.deepStrictEqual(reloaded.all(), [
      { ...a, body: 'Edited.' },
      { ...b, state: 'sent', followUpRunId: 'run_2' },
    ]);
    assert.deepStrictEqual(
      reloaded.draftsOf('run_1').map((c) => c.id),
      [a.id],
    );
    await reloaded.remove([a.id]);
    assert.deepStrictEqual(new CommentDrafts(state).runsWithDrafts(), []);
  });

  it('holds at most 100 drafts on a run and 500 comments in a workspace', async () => {
    const store = new CommentDrafts(new MemoryState());
    for (let i = 0; i < 100; i++) {
      assert.strictEqual(await store.add(draft('run_full')), undefined);
    }
    assert.strictEqual(await store.add(draft('run_full')), 'tooManyOnRun');
    for (let i = 0; i < MAX_STORED_COMMENTS - 100; i++) {
      assert.strictEqual(await store.add(draft(`run_${i % 50}`, { state: 'sent' })), undefined);
    }
    assert.strictEqual(await store.add(draft('run_other')), 'full');
    assert.strictEqual(store.all().length, MAX_STORED_COMMENTS);
  });

  it('drops junk from the state item by item and keeps the rest', () => {
    const state = new MemoryState();
    const good = draft();
    state.values.set(DRAFTS_KEY, [
      null,
      42,
      { ...good, id: 'not-an-id' },
      { ...good, id: newCommentId(), side: 'middle' },
      { ...good, id: newCommentId(), startLine: '1' },
      { ...good, id: newCommentId(), state: 'lost' },
      good,
    ]);
    assert.deepStrictEqual(new CommentDrafts(state).all(), [good]);
    state.values.set(DRAFTS_KEY, { not: 'a list' });
    assert.deepStrictEqual(new CommentDrafts(state).all(), []);
  });
});
