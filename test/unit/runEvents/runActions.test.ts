// The run-action table drives the tree's flags, the run panel's buttons and the manifest's menus
// and palette entries: package.json must hold exactly what the table asks for, and a row added to
// the table shows up in all three (in what this check says the manifest is missing, and in what
// the generator writes).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyToManifest } from '../../../src/common/buildContributions';
import { type Translate, untranslated } from '../../../src/common/translate';
import { declaredContributions } from '../../../src/contributions';
import {
  paletteWhen,
  panelActions,
  RUN_ACTIONS,
  type RunAction,
  runActionById,
  runActionLabelKey,
  runContextValue,
  runFactsOf,
  runRowMatches,
  treeMenuEntries,
} from '../../../src/runEvents/runActions';
import { parseWebviewMessage } from '../../../src/runPanel/protocol';
import { DEFAULT_UI_STRINGS } from '../../../src/runPanel/uiStrings';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

interface Manifest {
  contributes: {
    commands: { command: string }[];
    menus: Record<string, { command: string; when?: string; group?: string }[]>;
  };
}

const manifest = (): Manifest => JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;

/** What package.json lacks (or has beyond) for the table's rows: empty when it is in step. */
function manifestProblems(pkg: Manifest, actions: readonly RunAction[]): string[] {
  const problems: string[] = [];
  const { commands, menus } = pkg.contributes;
  for (const action of actions) {
    if (!commands.some((c) => c.command === action.command)) {
      problems.push(`contributes.commands: ${action.command}`);
    }
    const tree = menus['view/item/context'].filter((e) => e.command === action.command);
    const want = treeMenuEntries(action);
    if (JSON.stringify(tree.map(({ command, when, group }) => ({ command, when, group }))) !== JSON.stringify(want)) {
      problems.push(`view/item/context for ${action.command}: want ${JSON.stringify(want)}`);
    }
    const palette = menus.commandPalette.filter((e) => e.command === action.command);
    if (palette.length !== 1 || palette[0].when !== paletteWhen(action)) {
      problems.push(`commandPalette for ${action.command}: want when "${paletteWhen(action)}"`);
    }
  }
  return problems;
}

/** The regular expression of a `viewItem =~ /.../` clause, as VS Code evaluates it. */
function whenRegex(clause: string): RegExp {
  const m = /viewItem =~ \/(.*)\//.exec(clause);
  assert.ok(m, clause);
  return new RegExp(m[1]);
}

// A row of this test's own (not a real action), so a real row added to the table never clashes with it.
const retry: RunAction = {
  id: 'sampleRetry',
  command: 'agentRuntime.sampleRetryRun',
  title: 'Sample Retry Run',
  icon: 'refresh',
  label: (t: Translate) => t('Sample retry'),
  domId: 'sample-retry-run',
  panel: 'header',
  steering: false,
  group: '3_steer@4',
  offered: (run) => run.ended && run.status === 'failed',
};

describe('runEvents/runActions: one table of run actions', () => {
  it('package.json holds exactly the menus and palette entries the table asks for', () => {
    assert.deepEqual(manifestProblems(manifest(), RUN_ACTIONS), []);
  });

  it('gives every row a unique id, a panel label and a command the manifest contributes', () => {
    assert.equal(new Set(RUN_ACTIONS.map((a) => a.id)).size, RUN_ACTIONS.length);
    for (const action of RUN_ACTIONS) {
      const key = runActionLabelKey(action);
      assert.ok(DEFAULT_UI_STRINGS[key], `${action.id}: no panel string ${key}`);
      assert.equal(DEFAULT_UI_STRINGS[key], action.label(untranslated));
      assert.equal(runActionById(action.id), action);
    }
  });

  it('flags a run row with what it offers, and the menus match exactly those flags', () => {
    // Today's rows, by token: a row added to the table adds its own token and changes none of these.
    const tokens = (status: unknown) => runContextValue(runFactsOf(status)).split(' ');
    const has = (status: unknown, want: string[], not: string[]) => {
      assert.equal(tokens(status)[0], 'run');
      for (const t of want) {
        assert.ok(tokens(status).includes(t), `${String(status)}: ${t}`);
      }
      for (const t of not) {
        assert.ok(!tokens(status).includes(t), `${String(status)}: not ${t}`);
      }
    };
    has('running', ['active', 'cancel', 'fork'], ['resume', 'review']);
    has('failed', ['resume', 'review', 'fork'], ['active', 'cancel']);
    has('completed', ['review', 'fork'], ['active', 'cancel', 'resume']);
    has(undefined, ['review', 'fork'], ['active', 'cancel', 'resume']);
    for (const status of ['running', 'queued', 'awaiting_approval', 'failed', 'cancelled', 'completed']) {
      const value = runContextValue(runFactsOf(status));
      for (const action of RUN_ACTIONS) {
        const shown = whenRegex(treeMenuEntries(action)[0].when).test(value);
        assert.equal(
          shown,
          action.offered(runFactsOf(status), { steering: true }),
          `${action.id} on a ${status} run ("${value}")`,
        );
      }
      assert.equal(
        whenRegex(runRowMatches('active')).test(value),
        status !== 'failed' && status !== 'cancelled' && status !== 'completed',
      );
      assert.ok(/^run/.test(value), 'the menus for every run row match /^run/');
    }
  });

  it('offers the panel the header and event actions the run and service allow', () => {
    // Today's rows: what each placement offers includes (and leaves out) these, whatever rows are added.
    const ids = (a: RunAction[]) => a.map((x) => x.id);
    const offers = (
      run: { status: string; ended: boolean },
      steering: boolean,
      placement: RunAction['panel'],
      want: string[],
      not: string[],
    ) => {
      const got = ids(panelActions(run, { steering }, placement));
      for (const id of want) {
        assert.ok(got.includes(id), `${placement} offers ${id}: ${got.join(', ')}`);
      }
      for (const id of not) {
        assert.ok(!got.includes(id), `${placement} does not offer ${id}: ${got.join(', ')}`);
      }
      for (const action of RUN_ACTIONS.filter((a) => got.includes(a.id))) {
        assert.ok(steering || !action.steering, `${action.id} needs steering`);
      }
    };
    offers({ status: 'running', ended: false }, true, 'header', ['cancel'], ['resume', 'review', 'fork']);
    offers({ status: 'failed', ended: true }, true, 'header', ['resume', 'review'], ['cancel', 'fork']);
    offers({ status: 'failed', ended: true }, false, 'header', ['review'], ['resume', 'cancel']);
    offers({ status: 'running', ended: false }, true, 'event', ['fork'], ['cancel']);
    offers({ status: 'running', ended: false }, false, 'event', [], ['fork']);
  });

  it('takes the panel message of every row, with a sequence for an event action, and refuses others', () => {
    for (const action of RUN_ACTIONS) {
      const message =
        action.panel === 'event'
          ? { type: 'runAction', action: action.id, sequence: 3 }
          : { type: 'runAction', action: action.id };
      assert.deepEqual(parseWebviewMessage({ ...message, extra: 1 }), message);
    }
    assert.equal(
      parseWebviewMessage({ type: 'runAction', action: 'fork' }),
      undefined,
      'an event action needs its sequence',
    );
    assert.equal(parseWebviewMessage({ type: 'runAction', action: 'fork', sequence: 0 }), undefined);
    assert.equal(parseWebviewMessage({ type: 'runAction', action: 'rm -rf' }), undefined);
    assert.equal(parseWebviewMessage({ type: 'runAction', action: 'toString' }), undefined);
  });

  it('a row added to the table appears in the tree flags, the panel and the manifest check', () => {
    const actions = [...RUN_ACTIONS, retry];
    const failed = runFactsOf('failed');
    assert.match(runContextValue(failed, actions), / sampleRetry$/);
    assert.ok(whenRegex(treeMenuEntries(retry)[0].when).test(runContextValue(failed, actions)));
    assert.ok(!whenRegex(treeMenuEntries(retry)[0].when).test(runContextValue(runFactsOf('completed'), actions)));
    assert.deepEqual(
      panelActions(failed, { steering: true }, 'header', actions)
        .map((a) => a.id)
        .slice(-1),
      ['sampleRetry'],
    );
    assert.deepEqual(manifestProblems(manifest(), actions), [
      'contributes.commands: agentRuntime.sampleRetryRun',
      `view/item/context for agentRuntime.sampleRetryRun: want ${JSON.stringify(treeMenuEntries(retry))}`,
      'commandPalette for agentRuntime.sampleRetryRun: want when "agentRuntime.signedIn"',
    ]);
    // ...which `npm run contributions` writes from the table with the row: nothing is missing then.
    const generated = applyToManifest(
      fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'),
      declaredContributions(actions),
    );
    assert.deepEqual(manifestProblems(JSON.parse(generated) as Manifest, actions), []);
  });
});
