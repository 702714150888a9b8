// The spending settings guard the person: the currency and the monthly limit come from their own
// (user) settings only, and a workspace may set or tighten the per-run cap, never loosen it.
import '../views/vscodeStub';
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readBudgetSettings } from '../../../src/runs/budgetSettings';

type Inspected = { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown };

describe('runs/budgetSettings', () => {
  const workspace = vscode.workspace as unknown as Record<string, unknown>;
  let values: Record<string, Inspected>;

  beforeEach(() => {
    values = {};
    workspace.getConfiguration = () => ({
      inspect: (key: string) => values[key] ?? {},
      get: (key: string, fallback?: unknown) => {
        const v = values[key] ?? {};
        return v.workspaceFolderValue ?? v.workspaceValue ?? v.globalValue ?? fallback;
      },
    });
  });
  afterEach(() => {
    delete workspace.getConfiguration;
  });

  it("a workspace's currency and monthly limit are not the person's", () => {
    values.currency = { globalValue: 'USD', workspaceValue: 'JPY' };
    values.monthly = { globalValue: '50.00', workspaceValue: '5000000' };
    const read = readBudgetSettings();
    assert.equal(read.currency, 'USD');
    assert.equal(read.monthly?.units, 5000n);
  });

  it('a workspace may set or tighten the per-run cap, never loosen it', () => {
    values.perRun = { globalValue: '2.00', workspaceValue: '500.00' };
    assert.equal(readBudgetSettings().perRun?.units, 200n, 'loosening is ignored');
    values.perRun = { globalValue: '2.00', workspaceFolderValue: '0.50' };
    assert.equal(readBudgetSettings().perRun?.units, 50n, 'tightening holds');
    values.perRun = { workspaceValue: '1.25' };
    assert.equal(readBudgetSettings().perRun?.units, 125n, 'a cap where the person set none');
    values.perRun = { globalValue: '3' };
    assert.equal(readBudgetSettings().perRun?.units, 3n);
  });
});
