// The composition root: activate() builds the services and registers views, commands and the
// run panel's serializer. Nothing else lives here.
import * as vscode from 'vscode';
import { ArtifactFileSystem } from './artifacts/artifactFileSystem';
import { ARTIFACT_SCHEME } from './artifacts/artifactUris';
import { CredentialStore } from './auth/credentialStore';
import { ReauthPrompt } from './auth/reauthPrompt';
import { createArtifactActions, registerArtifactCommands } from './commands/artifactCommands';
import { CommandDeps } from './commands/commandDeps';
import { guarded } from './commands/commandErrors';
import { registerFileCommands } from './commands/fileCommands';
import { registerSidebarCommands } from './commands/sidebarCommands';
import { registerSignInCommands } from './commands/signInCommands';
import { registerUploadCommands } from './commands/uploadCommands';
import { watchTargetOf } from './commands/watchRunTarget';
import { RunPanelManager } from './runPanel/runPanelManager';
import { watchRunCommand } from './runPanel/watchRunCommand';
import { AgentRuntimeSession } from './session/agentRuntimeSession';
import { LocalFileIndex } from './session/localFileIndex';
import { readSettings } from './session/settings';
import { RunStatusTracker } from './statusBar/runStatusTracker';
import { Sidebar } from './views/sidebar';

/** What activate() returns: handles for the extension-host test suites, not a public API. */
export interface AgentRuntimeExtensionApi {
  session: AgentRuntimeSession;
  credentials: CredentialStore;
  reauth: ReauthPrompt;
  sidebar: Sidebar;
  runPanels: RunPanelManager;
}

export async function activate(context: vscode.ExtensionContext): Promise<AgentRuntimeExtensionApi> {
  const subs = context.subscriptions;
  const log = vscode.window.createOutputChannel('Agent Runtime', { log: true });
  subs.push(log);
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? 'dev');

  const credentials = new CredentialStore(context.secrets, log);
  const session = new AgentRuntimeSession(credentials, log, `agent-runtime-vscode/${version}`);
  const reauth = new ReauthPrompt('agentRuntime.signIn');
  const localFiles = new LocalFileIndex(context.globalState, () => session.serviceUrl);
  const reporter = { log, onAuthError: (err: unknown) => reauth.handle(err) };
  const status = new RunStatusTracker(session);
  subs.push(credentials, session, status);
  // Before the views exist, so they never show the "Sign in" welcome to a signed-in user.
  await session.update();

  const sidebar = new Sidebar({
    getClient: () => session.client,
    pageSize: () => readSettings().pageSize,
    isSignedIn: () => session.isSignedIn,
    onAuthError: reporter.onAuthError,
    log,
    localFiles,
    uploadUris: (uris) => vscode.commands.executeCommand('agentRuntime.uploadFiles', uris[0], uris),
  });
  subs.push(sidebar);

  const deps: CommandDeps = {
    session,
    credentials,
    log,
    settings: readSettings,
    localFiles,
    files: sidebar.files,
    tasks: {
      refresh: () => sidebar.tasks.refresh(),
      followNewTask: async (task) => {
        if (task.run_id) {
          sidebar.tasks.trackRun(task.run_id, task.id);
          status.trackRun(task.run_id);
        }
        await sidebar.tasks.revealTask(task.id, { focus: false, expand: true });
      },
    },
    guard: (name, handler) => guarded(reporter, name, handler),
    ensureSignedIn: async () => {
      if (session.isSignedIn) return true;
      const signIn = vscode.l10n.t('Sign In');
      const choice = await vscode.window.showWarningMessage(vscode.l10n.t('Sign in to the Agent Runtime service first.'), signIn);
      if (choice === signIn) await vscode.commands.executeCommand('agentRuntime.signIn');
      return session.isSignedIn;
    },
  };

  const artifacts = createArtifactActions(deps);
  const runPanels = new RunPanelManager({
    extensionUri: context.extensionUri,
    getClient: () => session.client,
    log,
    openArtifact: guarded(reporter, 'Open artifact', artifacts.open),
    saveArtifact: guarded(reporter, 'Save artifact', artifacts.save),
    signIn: () => vscode.commands.executeCommand('agentRuntime.signIn'),
  });
  subs.push(runPanels, runPanels.registerSerializer());

  const openWatch = watchRunCommand(runPanels);
  const artifactFs = new ArtifactFileSystem(() => session.client);
  subs.push(
    artifactFs,
    vscode.workspace.registerFileSystemProvider(ARTIFACT_SCHEME, artifactFs, {
      isReadonly: true,
      isCaseSensitive: true,
    }),
    ...registerSignInCommands(deps),
    ...registerUploadCommands(deps),
    ...registerFileCommands(deps),
    ...registerArtifactCommands(deps, artifacts),
    ...registerSidebarCommands(deps, sidebar),
    vscode.commands.registerCommand('agentRuntime.watchRun', guarded(reporter, 'Watch run', async (arg?: unknown) =>
      openWatch(await watchTargetOf(arg, () => session.client)))),
    vscode.commands.registerCommand('agentRuntime.showLog', () => log.show()),
    vscode.commands.registerCommand('agentRuntime.openSettings', () =>
      vscode.commands.executeCommand('workbench.action.openSettings', '@ext:agent-runtime.agent-runtime')),
    sidebar.onDidChangeReachability((reachable) => status.setReachable(reachable)),
    sidebar.tasks.onDidFinishRun(({ run, task }) => {
      status.finishRun(run.id);
      notifyRunFinished(run.id, run.status ?? 'finished', task?.objective);
    }),
    session.onDidChange(() => {
      reauth.reset();
      sidebar.refresh();
      status.setService(session.serviceUrl);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('agentRuntime.pageSize')) sidebar.refresh();
    }),
  );

  log.info(`Agent Runtime ${version} activated`);
  return { session, credentials, reauth, sidebar, runPanels };
}

/** "Your run ended": offered for runs the user started here. */
function notifyRunFinished(runId: string, status: string, objective?: string): void {
  const watch = vscode.l10n.t('Watch Run');
  const artifacts = vscode.l10n.t('Show Artifacts');
  const what = objective ? `"${objective.length > 60 ? objective.slice(0, 57) + '...' : objective}"` : runId;
  const message =
    status === 'completed' ? vscode.l10n.t('Run {0} completed.', what)
    : status === 'failed' ? vscode.l10n.t('Run {0} failed.', what)
    : status === 'cancelled' ? vscode.l10n.t('Run {0} was cancelled.', what)
    : vscode.l10n.t('Run {0} ended with status "{1}".', what, status);
  const show = status === 'failed' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  void show(message, watch, artifacts).then((choice) => {
    if (choice === watch) void vscode.commands.executeCommand('agentRuntime.watchRun', { runId, objective });
    if (choice === artifacts) void vscode.commands.executeCommand('agentRuntime.showArtifacts', { runId });
  });
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
