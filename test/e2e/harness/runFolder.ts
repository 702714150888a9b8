// A fresh temporary folder per session: its own HOME and XDG folders, code-server's user data
// and extensions folders, quiet user settings, and a workspace holding the files a caller asks for.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface RunFolderOptions {
  /** Prefix of the temp folder's name, e.g. the scenario's id. */
  name?: string;
  /** User settings merged over the quiet defaults (e.g. "agentRuntime.baseUrl"). Never put keys here. */
  settings?: Record<string, unknown>;
  /** Workspace settings, written to <workspace>/.vscode/settings.json. */
  workspaceSettings?: Record<string, unknown>;
  /** Workspace files: relative path -> content. */
  files?: Record<string, string | Buffer>;
  /** Copy an existing extensions folder (one .vsix installed once for many sessions). */
  extensionsFrom?: string;
  /** Runs once the workspace holds its files, before code-server opens it (e.g. `git init`). */
  prepareWorkspace?(workspace: string): void;
  /** A fixed folder kept between sessions (npm start) instead of a fresh temp one; existing workspace files are kept. */
  root?: string;
}

export interface RunFolder {
  root: string;
  home: string;
  userDataDir: string;
  extensionsDir: string;
  workspace: string;
  configFile: string;
  /** HOME and XDG_* pointed into the run folder, so nothing writes into the real home. */
  env: Record<string, string>;
  remove(): void;
}

/** Keeps the welcome page, tips, update checks, telemetry and experiments out of the way. */
export const QUIET_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'chat.commandCenter.enabled': false,
  'git.enabled': false,
  'security.workspace.trust.enabled': false,
};

export function createRunFolder(options: RunFolderOptions = {}): RunFolder {
  const root = options.root ?? fs.mkdtempSync(path.join(os.tmpdir(), `agent-runtime-${options.name ?? 'e2e'}-`));
  const home = path.join(root, 'home');
  const userDataDir = path.join(root, 'user-data');
  const extensionsDir = path.join(root, 'extensions');
  const workspace = path.join(root, 'workspace');
  for (const dir of [home, path.join(userDataDir, 'User'), workspace]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  if (options.extensionsFrom) {
    fs.cpSync(options.extensionsFrom, extensionsDir, { recursive: true });
  } else {
    fs.mkdirSync(extensionsDir, { recursive: true });
  }

  const settings = { ...QUIET_SETTINGS, ...options.settings };
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  if (options.workspaceSettings) {
    writeWorkspaceSettings(workspace, options.workspaceSettings);
  }
  for (const [relative, content] of Object.entries(options.files ?? {})) {
    const file = path.join(workspace, relative);
    if (!file.startsWith(workspace + path.sep)) {
      throw new Error(`workspace file outside the workspace: ${relative}`);
    }
    if (options.root && fs.existsSync(file)) {
      continue;
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  options.prepareWorkspace?.(workspace);

  const env = {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    XDG_RUNTIME_DIR: path.join(root, 'xdg-runtime'),
  };
  fs.mkdirSync(env.XDG_RUNTIME_DIR, { recursive: true, mode: 0o700 });
  return {
    root,
    home,
    userDataDir,
    extensionsDir,
    workspace,
    configFile: path.join(root, 'code-server.yaml'),
    env,
    remove: () => fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 }),
  };
}

/** Writes <workspace>/.vscode/settings.json (before code-server opens the folder). */
export function writeWorkspaceSettings(workspace: string, settings: Record<string, unknown>): void {
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2));
}
