// The composition root of VS Code for the Web (package.json "browser": vscode.dev, github.dev,
// code-server's web worker extension host). The same services as extension.ts, on the fetch
// transport (the web bundle takes the .web.ts twins, esbuild.js; the run panel's log lives in
// memory there), without what needs this computer's disk, programs or Node: uploads from paths
// and folders, review comments and catch-up, chat and the language model tools, the API
// for other extensions. Their commands say so in one sentence instead of failing (README, "In the
// browser"). Proxies and certificates are the browser's.
import * as vscode from 'vscode';
import { type AgentAccess, setUpAgentAccess } from './agentAccess/accessSetup';
import { ArtifactFileSystem } from './artifacts/artifactFileSystem';
import { ARTIFACT_SCHEME } from './artifacts/artifactUris';
import { CredentialStore } from './auth/credentialStore';
import { ReauthPrompt } from './auth/reauthPrompt';
import { createArtifactActions, registerArtifactCommands } from './commands/artifactCommands';
import { registerCreateTaskCommands } from './commands/createTaskCommands';
import { registerFileCommands } from './commands/fileCommands';
import { registerFilterCommands } from './commands/filterCommands';
import { registerSidebarCommands } from './commands/sidebarCommands';
import { registerSignInCommands } from './commands/signInCommands';
import { registerUploadCommands } from './commands/uploadCommands';
import { registerWatchRunCommand } from './commands/watchRunCommands';
import type { CommandDeps } from './commandSupport/commandDeps';
import { notInBrowser } from './commandSupport/notInBrowser';
import { Commands, SETTINGS_QUERY } from './common/ids';
import { notify } from './common/notify';
import { type MemoryFeature, setUpMemory } from './memory/memorySetup';
import { registerLinkCommands } from './navigation/linkCommands';
import { registerProjectCommands } from './projects/projectLoader';
import type { RunReview } from './reviewUi/reviewCommands';
import { registerReview } from './reviewUi/reviewLoader';
import { createBudgets, createCommandDeps, createRunPanels, createRunStore } from './rootParts';
import { registerRunLogCommands } from './runPanel/runLogCommands';
import { type LazyRunPanelManager } from './runPanel/runPanelLoader';
import type { RunStore } from './runs/runStore';
import { ServiceConnection } from './service/serviceConnection';
import { readSettings, userLevelBaseUrl } from './service/settings';
import { RunStatusTracker } from './statusBar/runStatusTracker';
import { setUpSteering, type Steering } from './steering/steeringSetup';
import { LocalFileIndex, UPLOAD_RECORD_FILE } from './upload/localFileIndex';
import { Sidebar } from './views/sidebar';

/** Handles for the test run only (ExtensionMode.Test), as extension.ts gives. */
export interface AgentRuntimeWebTestApi {
  web: true;
  service: ServiceConnection;
  credentials: CredentialStore;
  sidebar: Sidebar;
  runs: RunStore;
  runPanels: LazyRunPanelManager;
  steering: Steering;
  memory: MemoryFeature;
  agentAccess: AgentAccess;
  review: RunReview;
}

interface ContributedCommand {
  command?: unknown;
  title?: unknown;
  category?: unknown;
}

/** Every contributed command the web build does not register answers with notInBrowser(). */
async function registerAbsentCommands(context: vscode.ExtensionContext): Promise<vscode.Disposable[]> {
  const manifest = context.extension.packageJSON as { contributes?: { commands?: ContributedCommand[] } };
  const registered = new Set(await vscode.commands.getCommands(true));
  const absent: vscode.Disposable[] = [];
  for (const entry of manifest.contributes?.commands ?? []) {
    const id = entry.command;
    if (typeof id !== 'string' || !id.startsWith('agentRuntime.') || registered.has(id)) {
      continue;
    }
    // The manifest as VS Code read it has its titles in the user's language; a raw %key% is not shown.
    const title = typeof entry.title === 'string' && !entry.title.startsWith('%') ? entry.title : id;
    absent.push(vscode.commands.registerCommand(id, () => void notify.info(notInBrowser(title))));
  }
  return absent;
}

export async function activate(context: vscode.ExtensionContext): Promise<AgentRuntimeWebTestApi | undefined> {
  const subs = context.subscriptions;
  const log = vscode.window.createOutputChannel('Agent Runtime', { log: true });
  subs.push(log);
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? 'dev');

  // No environment here: the AGENT_RUNTIME_API_KEY of a desktop's shell does not exist in a browser.
  const credentials = new CredentialStore(context.secrets, log, userLevelBaseUrl, {});
  const service = new ServiceConnection(credentials, log, `agent-runtime-vscode/${version}`);
  const reauth = new ReauthPrompt(Commands.signIn);
  const localFiles = new LocalFileIndex(
    context.globalState,
    () => service.serviceUrl,
    vscode.Uri.joinPath(context.globalStorageUri, UPLOAD_RECORD_FILE).toString(),
  );
  const reporter = { log, onAuthError: (err: unknown) => reauth.handle(err) };
  const runs = createRunStore(service, reporter);
  const status = new RunStatusTracker(service, runs);
  subs.push(credentials, service, runs, status);
  const serviceReady = service.update();

  const sidebar = new Sidebar({
    getClient: () => service.client,
    pageSize: () => readSettings().pageSize,
    isSignedIn: () => service.isSignedIn,
    onAuthError: reporter.onAuthError,
    log,
    localFiles,
    runs,
    ready: serviceReady,
    uploadUris: (uris) => vscode.commands.executeCommand(Commands.uploadFiles, uris[0], uris),
    workspaceState: context.workspaceState,
  });
  subs.push(sidebar);
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
  // The run panel as on the desktop; its log lives in memory here (src/runLog/runLog.web.ts).
  const runPanels = createRunPanels(
    context,
    service,
    runs,
    reporter,
    artifacts,
    vscode.Uri.joinPath(context.globalStorageUri, 'run-logs').toString(),
  );
  subs.push(runPanels, runPanels.registerSerializer());

  const steering = setUpSteering(deps, runs, reporter.onAuthError, sidebar.tasks.onDidChangeTaskWaiting);
  subs.push(...steering.disposables);
  const memory = setUpMemory(deps, reporter.onAuthError);
  subs.push(...memory.disposables);
  const agentAccess = setUpAgentAccess(deps, reporter.onAuthError);
  subs.push(...agentAccess.disposables);
  // Review Changes and Apply as on the desktop, through vscode.workspace.fs (the .web.ts twins in
  // src/reviewUi and src/projects); a project's patch, which needs a git clone, says so. Projects
  // of a workspace opened from a GitHub repository (src/projects/projectCommands.web.ts).
  const review = registerReview(deps, subs, context.workspaceState);
  subs.push(...registerProjectCommands(deps, sidebar.tasks));

  let runsOf = service.serviceUrl;
  const artifactFs = new ArtifactFileSystem(() => service.client);
  subs.push(
    artifactFs,
    vscode.workspace.registerFileSystemProvider(ARTIFACT_SCHEME, artifactFs, {
      isReadonly: true,
      isCaseSensitive: true,
    }),
    ...registerSignInCommands(deps),
    // Uploads read the workspace's files through workspace.fs (src/upload/workspaceFiles.ts).
    ...registerUploadCommands(deps),
    ...registerCreateTaskCommands(deps),
    ...registerFileCommands(deps),
    ...registerArtifactCommands(deps, artifacts),
    registerWatchRunCommand(deps, runPanels),
    ...registerRunLogCommands(deps, runPanels),
    ...registerSidebarCommands(deps, sidebar),
    ...registerFilterCommands(deps, sidebar),
    ...registerLinkCommands(deps),
    vscode.commands.registerCommand(Commands.showLog, () => log.show()),
    vscode.commands.registerCommand(Commands.openSettings, (query?: unknown) =>
      vscode.commands.executeCommand(
        'workbench.action.openSettings',
        typeof query === 'string' && /^agentRuntime\.\w+$/.test(query) ? query : SETTINGS_QUERY,
      ),
    ),
    sidebar.onDidChangeReachability((reachable) => status.setReachable(reachable)),
    service.onDidChange(() => {
      reauth.reset();
      if (service.serviceUrl !== runsOf) {
        runsOf = service.serviceUrl;
        runs.reset();
        status.resetUsage();
      }
      sidebar.refresh();
      status.refresh();
    }),
  );
  subs.push(...(await registerAbsentCommands(context)));

  // Where a user (and the UI tests) see that this is the web build, in a web worker without Node.
  log.info(
    `Agent Runtime ${version} activated for VS Code for the Web (web worker: typeof process is ${typeof process}). ` +
      "Proxies and certificates are the browser's: the http.* settings are not read here.",
  );
  if (context.extensionMode !== vscode.ExtensionMode.Test) {
    return undefined;
  }
  return { web: true, service, credentials, sidebar, runs, runPanels, steering, memory, agentAccess, review };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
