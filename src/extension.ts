// The composition root: activate() builds the services and registers views, commands and the
// run panel's serializer. Nothing else lives here.
import * as vscode from 'vscode';
import { type AgentAccess, setUpAgentAccess } from './agentAccess/accessSetup';
import { ArtifactFileSystem } from './artifacts/artifactFileSystem';
import { ARTIFACT_SCHEME } from './artifacts/artifactUris';
import { CredentialStore } from './auth/credentialStore';
import { ReauthPrompt } from './auth/reauthPrompt';
import { registerChatParticipant } from './chat/chatLoader';
import { createArtifactActions, registerArtifactCommands } from './commands/artifactCommands';
import { registerCreateTaskCommands } from './commands/createTaskCommands';
import { registerFileCommands } from './commands/fileCommands';
import { registerFilterCommands } from './commands/filterCommands';
import { registerSidebarCommands } from './commands/sidebarCommands';
import { registerSignInCommands } from './commands/signInCommands';
import { createTaskRequests, type TaskRequests } from './commands/taskRequest';
import { registerUploadCommands } from './commands/uploadCommands';
import { registerWatchRunCommand } from './commands/watchRunCommands';
import type { BudgetGate } from './commandSupport/budgetChoice';
import type { CommandDeps } from './commandSupport/commandDeps';
import { ActivationTiming } from './common/activationTiming';
import { Commands, Settings, SETTINGS_QUERY } from './common/ids';
import { vscodeTranslate } from './common/vscodeTranslate';
import type { AgentRuntimeApi } from './extensionApi/agentRuntimeApi';
import { createExtensionApi } from './extensionApi/extensionApi';
import { resolveWorkspaceFiles } from './languageModelTools/toolFiles';
import { registerTools } from './languageModelTools/toolsLoader';
import { registerRunLinkHandler } from './links/runLinkHandler';
import { type MemoryFeature, setUpMemory } from './memory/memorySetup';
import { registerGoToCommand } from './navigation/goToCommand';
import { registerLinkCommands } from './navigation/linkCommands';
import { clonePositions, registerProjectCommands } from './projects/projectLoader';
import { type ReviewTalk, setUpReviewTalk } from './reviewTalk/reviewTalkSetup';
import { registerReview } from './reviewUi/reviewLoader';
import { createBudgets, createCommandDeps, createRunPanels, createRunStore } from './rootParts';
import { registerRunLogCommands } from './runPanel/runLogCommands';
import { type LazyRunPanelManager } from './runPanel/runPanelLoader';
import { announceFinishedRuns } from './runs/runFinishedNotice';
import type { RunStore } from './runs/runStore';
import { ServiceConnection } from './service/serviceConnection';
import { readSettings, userLevelBaseUrl } from './service/settings';
import { RunStatusTracker } from './statusBar/runStatusTracker';
import { setUpSteering, type Steering } from './steering/steeringSetup';
import { LocalFileIndex, UPLOAD_RECORD_FILE } from './upload/localFileIndex';
import { Sidebar } from './views/sidebar';

/**
 * Handles for the extension-host test suites, added to what activate() returns in the test run
 * only (ExtensionMode.Test): other extensions get the public API alone, never the key's store.
 */
export interface AgentRuntimeExtensionApi {
  service: ServiceConnection;
  credentials: CredentialStore;
  reauth: ReauthPrompt;
  sidebar: Sidebar;
  runs: RunStore;
  runPanels: LazyRunPanelManager;
  steering: Steering;
  agents: {
    tools: ReadonlyMap<string, vscode.LanguageModelTool<unknown>>;
    chatHandler: vscode.ChatRequestHandler;
    taskRequests: TaskRequests;
  };
  memory: MemoryFeature;
  agentAccess: AgentAccess;
  reviewTalk: ReviewTalk;
  budgets: BudgetGate;
}

/** What activate() returns: the public API (src/extensionApi/agentRuntimeApi.d.ts), plus the test handles in the test run. */
export async function activate(
  context: vscode.ExtensionContext,
): Promise<AgentRuntimeApi | (AgentRuntimeApi & AgentRuntimeExtensionApi)> {
  const activationStarted = performance.now();
  const subs = context.subscriptions;
  const log = vscode.window.createOutputChannel('Agent Runtime', { log: true });
  subs.push(log);
  const timing = new ActivationTiming(log, activationStarted);
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? 'dev');

  const credentials = new CredentialStore(context.secrets, log, userLevelBaseUrl);
  const service = new ServiceConnection(credentials, log, `agent-runtime-vscode/${version}`);
  const reauth = new ReauthPrompt(Commands.signIn);
  const localFiles = new LocalFileIndex(
    context.globalState,
    () => service.serviceUrl,
    vscode.Uri.joinPath(context.globalStorageUri, UPLOAD_RECORD_FILE).fsPath,
  );
  const reporter = { log, onAuthError: (err: unknown) => reauth.handle(err) };
  const runs = createRunStore(service, reporter);
  const status = new RunStatusTracker(service, runs);
  subs.push(credentials, service, runs, status);
  // The key is read while the views come up (in code-server the secret store answers only once
  // the busy starting workbench gets to it, up to a second): the trees wait for it, so they never
  // show the "Sign in" welcome to a signed-in user, and activation waits for it below, so
  // commands see the real sign-in state.
  const serviceReady = service.update().then(() => timing.mark('credentials read'));

  const sidebar = new Sidebar({
    getClient: () => service.client,
    pageSize: () => readSettings().pageSize,
    isSignedIn: () => service.isSignedIn,
    onAuthError: reporter.onAuthError,
    log,
    localFiles,
    runs,
    ready: serviceReady,
    onFirstRows: (view, rows) => timing.firstRows(view, rows),
    onActivationStep: (step) => timing.mark(step),
    uploadUris: (uris) => vscode.commands.executeCommand(Commands.uploadFiles, uris[0], uris),
    workspaceState: context.workspaceState,
  });
  subs.push(sidebar);
  timing.mark('views registered');
  await serviceReady;

  const budgets = createBudgets(context, service, runs, log);

  const deps: CommandDeps = createCommandDeps({
    context,
    service,
    credentials,
    localFiles,
    runs,
    sidebar,
    reporter,
    budgets,
    activeRunPanel: () => runPanels.panelFor(undefined)?.runId,
  });

  const artifacts = createArtifactActions(deps);
  const runPanels = createRunPanels(
    context,
    service,
    runs,
    reporter,
    artifacts,
    vscode.Uri.joinPath(context.globalStorageUri, 'run-logs').fsPath,
  );
  subs.push(runPanels, runPanels.registerSerializer());

  const review = registerReview(deps, subs, context.workspaceState);
  const reviewTalk = setUpReviewTalk(deps, runs, context.workspaceState, review, clonePositions(deps));
  subs.push(reviewTalk);
  sidebar.tasks.setRunNotes(reviewTalk.runNotes);
  runPanels.setDraftComments(reviewTalk.runNotes);
  const steering = setUpSteering(deps, runs, reporter.onAuthError, sidebar.tasks.onDidChangeTaskWaiting);
  subs.push(...steering.disposables);
  const memory = setUpMemory(deps, reporter.onAuthError);
  subs.push(...memory.disposables);
  const agentAccess = setUpAgentAccess(deps, reporter.onAuthError);
  subs.push(...agentAccess.disposables);

  let runsOf = service.serviceUrl;
  const artifactFs = new ArtifactFileSystem(() => service.client);
  subs.push(
    artifactFs,
    vscode.workspace.registerFileSystemProvider(ARTIFACT_SCHEME, artifactFs, {
      isReadonly: true,
      isCaseSensitive: true,
    }),
    ...registerSignInCommands(deps),
    ...registerUploadCommands(deps),
    ...registerCreateTaskCommands(deps),
    ...registerFileCommands(deps),
    ...registerArtifactCommands(deps, artifacts),
    ...registerSidebarCommands(deps, sidebar),
    registerWatchRunCommand(deps, runPanels),
    ...registerRunLogCommands(deps, runPanels),
    registerGoToCommand(deps, { sidebar, runPanels, openArtifact: artifacts.open, state: context.workspaceState }),
    ...registerFilterCommands(deps, sidebar),
    ...registerLinkCommands(deps),
    ...registerProjectCommands(deps, sidebar.tasks),
    registerRunLinkHandler((link) => runPanels.open(link.runId, { revealSequence: link.sequence }), log),
    vscode.commands.registerCommand(Commands.showLog, () => log.show()),
    // One way into the Settings editor: the extension's settings, or one of ours or of http.*.
    vscode.commands.registerCommand(Commands.openSettings, (query?: unknown) =>
      vscode.commands.executeCommand(
        'workbench.action.openSettings',
        typeof query === 'string' && /^(agentRuntime|http)\.\w+$/.test(query) ? query : SETTINGS_QUERY,
      ),
    ),
    announceFinishedRuns(
      runs,
      (taskId) => service.client.getTask(taskId),
      (runId) => review.hasReviewableChanges(runId),
    ),
    sidebar.onDidChangeReachability((reachable) => status.setReachable(reachable)),
    service.onDidChange(() => {
      reauth.reset();
      // Another service: nothing known about the old one's runs holds (a new key keeps them).
      if (service.serviceUrl !== runsOf) {
        runsOf = service.serviceUrl;
        runs.reset();
        status.resetUsage();
      }
      sidebar.refresh();
      status.refresh();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(Settings.pageSize)) {
        sidebar.refresh();
      }
    }),
  );

  // VS Code's own agents: tools for agent mode, @agent-runtime, the API for other extensions.
  const taskRequests = createTaskRequests(deps);
  const tools = registerTools(
    {
      client: () => service.client,
      serviceUrl: () => service.serviceUrl,
      isSignedIn: () => service.isSignedIn,
      runs,
      resolveFiles: resolveWorkspaceFiles,
      startTask: (objective, files) =>
        taskRequests.startConfirmed(
          objective,
          files.map((f) => f.uri),
          'tool',
        ),
      budget: () => budgets.choose('tool'),
      t: vscodeTranslate,
    },
    log,
  );
  const chat = registerChatParticipant(
    {
      client: () => service.client,
      isSignedIn: () => service.isSignedIn,
      runs,
      startTask: (objective, files) => taskRequests.startAsked(objective, files, 'chat'),
      hasReviewableChanges: (runId) => review.hasReviewableChanges(runId),
      log,
    },
    context.extensionUri,
  );
  const extensionApi = createExtensionApi({
    client: () => service.client,
    isSignedIn: () => service.isSignedIn,
    runs,
    approvals: steering.pending,
    startTask: (objective, files) => taskRequests.startAsked(objective, files, 'extension'),
    openRunPanel: async (runId) => void (await vscode.commands.executeCommand(Commands.watchRun, { runId })),
  });
  subs.push(...tools.disposables, chat.participant, ...extensionApi.disposables);

  timing.mark('activate() returned');
  log.info(`Agent Runtime ${version} activated`);
  if (context.extensionMode !== vscode.ExtensionMode.Test) {
    return extensionApi.api;
  }
  const agents = { tools: tools.tools, chatHandler: chat.handler, taskRequests };
  return {
    ...extensionApi.api,
    service,
    credentials,
    reauth,
    sidebar,
    runs,
    runPanels,
    steering,
    agents,
    memory,
    agentAccess,
    reviewTalk,
    budgets,
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
