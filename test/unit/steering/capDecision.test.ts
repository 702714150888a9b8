// The decision at the cap, its pure parts: what was spent on since the last raise (bounded, the
// rest counted), the pause it reads up to, the prefilled cap and the check of a typed one.
import * as assert from 'node:assert/strict';
import type { RunRecord } from '../../../src/api/types';
import { validMoney } from '../../../src/common/money';
import { untranslated } from '../../../src/common/translate';
import {
  capDecisionLines,
  capFacts,
  checkRaise,
  isWaitingAtCap,
  MAX_SPENT_ITEMS,
  raisePrefill,
  spendDocument,
  spendDocumentTitle,
  SpendSinceDecision,
} from '../../../src/steering/capDecision';

const usd = (amount: string) => validMoney({ amount, currency: 'USD' });
let seq = 0;
const ev = (event: string, data: Record<string, unknown> = {}) => ({ event, data: { sequence: ++seq, ...data } });

describe('steering/capDecision', () => {
  it('a run waits at its cap only with an id and the status exactly awaiting_budget', () => {
    assert.equal(isWaitingAtCap({ id: 'run_1', status: 'awaiting_budget' }), true);
    assert.equal(isWaitingAtCap({ id: 'run_1', status: 'awaiting_approval' }), false);
    assert.equal(isWaitingAtCap({ status: 'awaiting_budget' }), false);
    assert.equal(isWaitingAtCap(null), false);
  });

  it('counts the steps and tool calls since the last raise and stops at the pause with the record cost', () => {
    const spend = new SpendSinceDecision('run_1', usd('0.05'));
    assert.equal(spend.add(ev('step.started', { step_id: 'step_1', title: 'Read' })), false);
    assert.equal(spend.add(ev('tool.called', { tool: 'read_file', arguments: { file_id: 'file_1' } })), false);
    assert.equal(
      spend.add(ev('budget.reached', { cost: { amount: '0.03', currency: 'USD' } })),
      false,
      'an earlier pause',
    );
    spend.add(ev('budget.raised', { budget: { amount: '0.05', currency: 'USD' } }));
    assert.equal(spend.steps, 0, 'the stretch starts again at the raise');
    spend.add(ev('step.started', { step_id: 'step_2', title: 'Write' }));
    spend.add(ev('budget.raised', { run_id: 'run_someone_else' }));
    assert.equal(spend.steps, 1, 'a raise of another run changes nothing');
    assert.equal(
      spend.add(ev('budget.reached', { run_id: 'run_other', cost: { amount: '0.05', currency: 'USD' } })),
      false,
    );
    assert.equal(spend.add(ev('budget.reached', { cost: { amount: '0.05', currency: 'USD' } })), true);
    assert.equal(spend.sinceRaise, true);
    assert.deepEqual(
      spend.items.map((i) => i.name),
      ['step_2 · Write'],
    );
  });

  it('keeps at most MAX_SPENT_ITEMS and says how many more there were', () => {
    const spend = new SpendSinceDecision('run_1', undefined);
    for (let i = 0; i < MAX_SPENT_ITEMS + 3; i++) {
      spend.add(ev('tool.called', { tool: 'count_words', arguments: { n: i } }));
    }
    assert.equal(spend.items.length, MAX_SPENT_ITEMS);
    assert.equal(spend.leftOut, 3);
    assert.equal(spend.toolCalls, MAX_SPENT_ITEMS + 3);
    const run: RunRecord = {
      id: 'run_1',
      budget: { amount: '0.05', currency: 'USD' },
      usage: { cost: { amount: '0.06', currency: 'USD' } },
    };
    const lines = capDecisionLines(capFacts(run, 'Count'), spend, untranslated);
    assert.ok(lines.includes('Spent 0.06 USD of its cap of 0.05 USD.'), lines.join('\n'));
    assert.ok(
      lines.some((l) => l.startsWith(`${MAX_SPENT_ITEMS - 8 + 3} earlier items are not listed here`)),
      lines.join('\n'),
    );
    const doc = spendDocument(capFacts(run), spend, untranslated);
    assert.match(doc, /3 more items past the first 2000 were not kept\./);
    assert.match(doc, /"n": 1999/);
  });

  it('says when the events were not read up to the pause, and shows an unusable amount as received', () => {
    const spend = new SpendSinceDecision('run_1', usd('0.05'));
    spend.partial = true;
    const lines = capDecisionLines(
      capFacts({ id: 'run_1', budget: { amount: 'lots', currency: 'USD' } }),
      spend,
      untranslated,
    );
    assert.ok(
      lines.some((l) => l.startsWith('Its events could not all be read')),
      lines.join('\n'),
    );
    assert.ok(
      lines.includes('Spent unknown of its cap of lots USD (not a decimal amount, not counted).'),
      lines.join('\n'),
    );
  });

  it('prefills the cost plus the per-run cap, else the cap doubled, always above the cost', () => {
    assert.equal(raisePrefill(usd('0.05'), usd('0.06'), usd('3.00'))?.units, 306n);
    const doubled = raisePrefill(usd('0.05'), usd('0.05'), undefined);
    assert.deepEqual([doubled?.units, doubled?.scale], [10n, 2]);
    const other = raisePrefill(usd('0.05'), usd('0.20'), validMoney({ amount: '1', currency: 'EUR' }));
    assert.deepEqual(
      [other?.units, other?.scale],
      [40n, 2],
      'another currency is never added; doubling the cap is not above the cost',
    );
    assert.equal(raisePrefill(undefined, undefined, usd('1.00')), undefined);
  });

  it('a typed cap must be a plain amount above zero and above the cost', () => {
    assert.ok(checkRaise('0.10', 'USD', usd('0.05'), untranslated).ok);
    assert.match(
      checkRaise('0.05', 'USD', usd('0.05'), untranslated).problem ?? '',
      /above what the run has spent \(0\.05 USD\)/,
    );
    assert.ok(checkRaise('-1', 'USD', undefined, untranslated).problem);
    assert.ok(checkRaise('1e3', 'USD', undefined, untranslated).problem);
    assert.ok(checkRaise('0', 'USD', undefined, untranslated).problem);
    assert.ok(checkRaise('9'.repeat(40), 'USD', undefined, untranslated).problem);
  });

  it('names the spend document after the task and the stretch, in one line and cut', () => {
    assert.equal(
      spendDocumentTitle('Summarise the report', true, untranslated),
      'Spend of Summarise the report since the last decision',
    );
    assert.equal(spendDocumentTitle('Summarise', false, untranslated), 'Spend of Summarise since it started');
    assert.equal(spendDocumentTitle(undefined, true, untranslated), 'Spend of a run since the last decision');
    assert.equal(spendDocumentTitle('  two\n lines ', false, untranslated), 'Spend of two lines since it started');
    const long = spendDocumentTitle('x'.repeat(500), false, untranslated);
    assert.ok(long.length < 100, long);
    assert.match(long, /x… since it started$/);
    assert.doesNotMatch(spendDocumentTitle('a.json', false, untranslated), /\.json$/);
  });
});
