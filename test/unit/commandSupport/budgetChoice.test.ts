// The cap a person is asked for before a resume or fork: the continued run's cap is named and
// prefilled, and an empty answer keeps it (it never silently becomes "no cap", nor the setting's).
import '../views/vscodeStub';
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { createBudgetGate } from '../../../src/commandSupport/budgetChoice';
import type { BudgetSettings } from '../../../src/runs/budgetSettings';
import type { SpendHistory } from '../../../src/runs/spendHistory';
import type { ServiceConnection } from '../../../src/service/serviceConnection';

describe('commandSupport/budgetChoice', () => {
  const window = vscode.window as unknown as Record<string, unknown>;
  let shown: { value?: string; prompt?: string; placeHolder?: string }[];
  let typed: string | undefined;

  const gate = (perRun?: string) =>
    createBudgetGate({
      service: {
        client: { getUsage: async () => Promise.reject(new Error('no usage here')) },
      } as unknown as ServiceConnection,
      log: { info: () => undefined, warn: () => undefined } as unknown as vscode.LogOutputChannel,
      history: { summary: () => ({ count: 0 }) } as unknown as SpendHistory,
      trustedAutomation: false,
      settings: (): BudgetSettings => ({
        currency: 'USD',
        problems: [],
        ...(perRun
          ? { perRun: { valid: true, units: BigInt(perRun.replace('.', '')), scale: 2, currency: 'USD' } }
          : {}),
      }),
    });

  beforeEach(() => {
    shown = [];
    typed = '';
    window.showInputBox = async (options: { value?: string; prompt?: string; placeHolder?: string }) => {
      shown.push(options);
      return typed;
    };
  });
  afterEach(() => {
    delete window.showInputBox;
  });

  it("a resume or fork prefills the continued run's cap and says an empty answer keeps it", async () => {
    const choice = await gate('5.00').choose('person', { amount: '0.80', currency: 'USD' });
    assert.equal(shown[0].value, '0.80', "the continued run's cap, not the setting's");
    assert.match(shown[0].prompt ?? '', /The run this continues had a cap of 0\.80 USD; left empty, the service keeps/);
    assert.match(shown[0].placeHolder ?? '', /empty to keep 0\.80 USD/);
    assert.deepEqual(choice, { budget: { amount: '0.80', currency: 'USD' } });
  });

  it('a typed amount replaces it', async () => {
    typed = '2.50';
    assert.deepEqual(await gate().choose('person', { amount: '0.80', currency: 'USD' }), {
      budget: { amount: '2.50', currency: 'USD' },
    });
  });

  it('without a cap to continue: the setting prefilled, and empty means no cap', async () => {
    assert.deepEqual(await gate('5.00').choose('person'), {});
    assert.equal(shown[0].value, '5.00');
    assert.match(shown[0].placeHolder ?? '', /empty for no cap/);
    assert.deepEqual(
      await gate().choose('person', { amount: 'lots', currency: 'USD' }),
      {},
      'an unusable cap is not one',
    );
  });
});
