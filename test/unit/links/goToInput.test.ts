// "Go to…" input: the kind by prefix, run links, an artifact with its run, what people paste
// around an id; hostile input is refused with a reason before anything is sent.
import * as assert from 'node:assert/strict';
import { untranslated } from '../../../src/common/translate';
import { parseGoToInput } from '../../../src/links/goToInput';
import { notFoundText, problemText, stoppedLookingText } from '../../../src/links/linkText';

const problem = (text: string): string => {
  const result = parseGoToInput(text);
  return result.ok ? 'accepted' : result.problem;
};

describe('links/goToInput', () => {
  it('recognises task_, run_, file_ and art_ ids by prefix', () => {
    assert.deepEqual(parseGoToInput('task_1a2b'), { ok: true, target: { kind: 'task', id: 'task_1a2b' } });
    assert.deepEqual(parseGoToInput('run_X-9'), { ok: true, target: { kind: 'run', id: 'run_X-9' } });
    assert.deepEqual(parseGoToInput('file_abc'), { ok: true, target: { kind: 'file', id: 'file_abc' } });
    assert.deepEqual(parseGoToInput('art_abc'), { ok: true, target: { kind: 'artifact', id: 'art_abc' } });
  });

  it('is tolerant of what is pasted around an id', () => {
    for (const text of ['  task_1 ', '"task_1"', "'task_1',", '`task_1`', '<task_1>', '(task_1).', '\ttask_1\n']) {
      assert.deepEqual(
        parseGoToInput(text),
        { ok: true, target: { kind: 'task', id: 'task_1' } },
        JSON.stringify(text),
      );
    }
  });

  it('takes a run link (with its event) and an artifact given with its run', () => {
    assert.deepEqual(parseGoToInput('vscode://agent-runtime.agent-runtime/run/run_7#15'), {
      ok: true,
      target: { kind: 'run', id: 'run_7', sequence: 15 },
    });
    assert.deepEqual(parseGoToInput('run_7/art_3'), {
      ok: true,
      target: { kind: 'artifact', id: 'art_3', runId: 'run_7' },
    });
    assert.deepEqual(parseGoToInput('run_7  art_3'), {
      ok: true,
      target: { kind: 'artifact', id: 'art_3', runId: 'run_7' },
    });
  });

  it('refuses hostile and malformed input with a reason', () => {
    assert.equal(problem(''), 'empty');
    assert.equal(problem('  "" '), 'empty');
    assert.equal(problem(`task_${'a'.repeat(10_000)}`), 'tooLong');
    assert.equal(problem('task_../../files'), 'badCharacters');
    assert.equal(problem('../task_1'), 'unknownPrefix');
    assert.equal(problem('task_a%2Fb'), 'badCharacters');
    assert.equal(problem('task_a/b'), 'badCharacters');
    assert.equal(problem('task_a?x=1'), 'badCharacters');
    assert.equal(problem('task_a#b'), 'badCharacters');
    assert.equal(problem('task_'), 'badCharacters');
    assert.equal(problem(`task_${'a'.repeat(201)}`), 'badCharacters');
    assert.equal(problem('task_\u202eevil'), 'badCharacters');
    assert.equal(problem('apr_1'), 'unknownPrefix');
    assert.equal(problem('hello'), 'unknownPrefix');
    assert.equal(problem('run_1/art_../x'), 'badCharacters');
    assert.equal(problem('vscode://another.extension/run/run_1#2'), 'notOurs');
    assert.equal(problem('vscode://agent-runtime.agent-runtime/run/run_1#0'), 'badSequence');
  });

  it('says every problem and every not-found as a sentence, echoing input shortened and inert', () => {
    for (const p of [
      'empty',
      'tooLong',
      'unknownPrefix',
      'badCharacters',
      'notOurs',
      'notARunLink',
      'badRunId',
      'badSequence',
    ] as const) {
      assert.ok(problemText(p, untranslated).length > 10, p);
    }
    assert.match(notFoundText('task', 'task_zzz', untranslated), /^No task with id task_zzz\. /);
    const long = notFoundText('run', `run_${'x'.repeat(10_000)}`, untranslated);
    assert.ok(long.length < 300, 'a huge id is not repeated whole');
  });

  it('says how far it looked when it stopped looking for an artifact, and where to look on', () => {
    const text = stoppedLookingText('art_zzz', 2000, untranslated);
    assert.match(text, /art_zzz/);
    assert.match(text, /first 2000 artifacts/);
    assert.match(text, /Artifacts section/);
    assert.doesNotMatch(text, /^No artifact/);
  });
});
