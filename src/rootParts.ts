// What both composition roots (src/extension.ts for the desktop, src/extension.web.ts for VS Code
// for the Web) build the same way: the run store, the spend history and budget gate, and the
// CommandDeps. One place, so the two builds cannot drift apart.
import * as vscode from 'vscode';
import type { CredentialStore } from './auth/credentialStore';
import type { createArtifactActions } from './commands/artifactCommands';
import { type BudgetGate, createBudgetGate } from './commandSupport/budgetChoice';
import type { CommandDeps } from './commandSupport/commandDeps';
import { guarded } from './commandSupport/commandErrors';
import { Commands } from './common/ids';
import { notify } from './common/notify';
import { LazyRunPanelManager } from './runPanel/runPanelLoader';
import { RunStore } from './runs/runStore';
import { SpendHistory } from './runs/spendHistory';
import type { ServiceConnection } from './service/serviceConnection';
import { readSettings } from './service/settings';
import { BudgetlessRuns } from './steering/budgetlessWatch';
import type { LocalFileIndex } from './upload/localFileIndex';
import type { Sidebar } from './views/sidebar';
import { revealTask } from './views/tasksReveal';

interface Reporter {
  log: vscode.LogOutputChannel;
  onAuthError(err: unknown): void;
}

/** The one owner of run facts, polling through one runs list a look (src/runs/changeFeed.ts). */
export function createRunStore(service: ServiceConnection, reporter: Reporter): RunStore {
  return new RunStore({
    fetchRun: (runId, signal) => service.client.getRun(runId, { signal }),
    listRuns: (params, signal) => service.client.listRuns(params, { signal }),
    listScope: () => service.client.baseUrl,
    log: reporter.log,
    onAuthError: reporter.onAuthError,
  });
}

/**
 * The run panels of a window. `logFolder`: where run logs are kept, as the log store of this
 * build reads it (a path on the desktop, a URI in the web worker).
 */
export function createRunPanels(
  context: vscode.ExtensionContext,
  service: ServiceConnection,
  runs: RunStore,
  reporter: Reporter,
  artifacts: ReturnType<typeof createArtifactActions>,
  logFolder: string,
): LazyRunPanelManager {
  return new LazyRunPanelManager({
    extensionUri: context.extensionUri,
    getClient: () => service.client,
    runs,
    log: reporter.log,
    openArtifact: guarded(reporter, 'Open artifact', artifacts.open),
    saveArtifact: guarded(reporter, 'Save artifact', artifacts.save),
    signIn: () => vscode.commands.executeCommand(Commands.signIn),
    logFolder,
  });
}

/** The budget gate, with what this workspace's runs cost noted as each run started here ends. */
export function createBudgets(
  context: vscode.ExtensionContext,
  service: ServiceConnection,
  runs: RunStore,
  log: vscode.LogOutputChannel,
): BudgetGate {
  const spendHistory = new SpendHistory(context.workspaceState);
  context.subscriptions.push(
    runs.onDidChange((change) => {
      if (change.finished && change.facts.followed) {
        void spendHistory.note(change.facts.record);
      }
    }),
  );
  const trustedAutomation = context.extensionMode === vscode.ExtensionMode.Test;
  // Runs whose service did not keep the cap sent: followed against it (the gate's questions are read in tests).
  const budgetless = new BudgetlessRuns({
    client: () => service.client,
    serviceUrl: () => service.serviceUrl,
    onServiceChange: service.onDidChange,
    runs,
    log,
    trustedAutomation,
    askedInTests: { push: (question) => gate.askedInTests.push(question) },
    answerInTests: () => gate.answerAtIgnoredCapInTests,
  });
  const gate = createBudgetGate({
    service,
    log,
    history: spendHistory,
    trustedAutomation,
    onStarted: (sent, returned, runId, objective) => budgetless.noteStarted(sent, returned, runId, objective),
  });
  context.subscriptions.push(budgetless);
  return gate;
}

export interface CommandDepsParts {
  context: vscode.ExtensionContext;
  service: ServiceConnection;
  credentials: CredentialStore;
  localFiles: LocalFileIndex;
  runs: RunStore;
  sidebar: Sidebar;
  reporter: Reporter;
  budgets: BudgetGate;
  /** The active run panel's run; the web build has no run panel. */
  activeRunPanel(): string | undefined;
}

export function createCommandDeps(parts: CommandDepsParts): CommandDeps {
  const { service, runs, sidebar, reporter } = parts;
  return {
    budgets: parts.budgets,
    service,
    credentials: parts.credentials,
    log: reporter.log,
    settings: readSettings,
    localFiles: parts.localFiles,
    files: sidebar.files,
    selection: (view) => sidebar.selection.current(view),
    activeRunPanel: parts.activeRunPanel,
    tasks: {
      refresh: () => sidebar.tasks.refresh(),
      followNewTask: async (task) => {
        if (typeof task.run_id === 'string') {
          runs.follow(task.run_id, task.id);
        }
        await revealTask(sidebar.tasks, () => service.client, task.id, { focus: false, expand: true });
      },
    },
    guard: (name, handler) => guarded(reporter, name, handler),
    trustedAutomation: parts.context.extensionMode === vscode.ExtensionMode.Test,
    ensureSignedIn: async () => {
      if (service.isSignedIn) {
        return true;
      }
      const signIn = vscode.l10n.t('Sign In');
      const choice = await notify.warn(vscode.l10n.t('Sign in to the Agent Runtime service first.'), signIn);
      if (choice === signIn) {
        await vscode.commands.executeCommand(Commands.signIn);
      }
      return service.isSignedIn;
    },
  };
}
