// What a UI scenario is and what it gets to work with.
import { type Page } from 'playwright-core';
import { type RuntimeHandle, type RuntimeOptions } from '../../runtime';
import { type VsCodeTarget } from '../harness/paths';
import { type Screenshots } from '../harness/screenshots';
import { type Session } from '../harness/session';
import { type Workbench } from '../harness/workbench';

export interface ScenarioContext {
  /** The VS Code this run drives (E2E_VSCODE). */
  target: VsCodeTarget;
  workbench: Workbench;
  page: Page;
  runtime: RuntimeHandle;
  /** The runtime's request log so far (`METHOD /path STATUS Nms id`), redacted. */
  runtimeLog: string[];
  session: Session;
  /** The workspace folder on disk (the files the scenario asked for are in it). */
  workspace: string;
  shots: Screenshots;
  /** Takes a screenshot into the scenario's set. */
  shot(name: string): Promise<void>;
  log(message: string): void;
}

export interface Scenario {
  /** Short id used by E2E_SCENARIOS and as the screenshot folder's name. */
  id: string;
  /** What the scenario proves, printed on its PASS/FAIL line. */
  title: string;
  /**
   * How the extension gets its key: 'env' hands the runtime's key over in AGENT_RUNTIME_API_KEY
   * (headless sign-in), 'none' starts signed out, or a literal wrong key.
   */
  auth?: 'env' | 'none' | { wrongKey: string };
  /** Options for the scenario's own reference runtime (merged over the runner's defaults). */
  runtime?: RuntimeOptions;
  /** Workspace files: relative path -> content. */
  files?: Record<string, string>;
  /** Runs once the workspace holds `files`, before VS Code opens it (a git repository, say). */
  prepareWorkspace?(workspace: string): void;
  /** Extra user settings. */
  settings?: Record<string, unknown>;
  /**
   * Test-only extensions installed for this scenario alone, beside the packaged one: folder names
   * under test/e2e/fixtures (plain JavaScript, never in the .vsix).
   */
  fixtureExtensions?: string[];
  /** code-server's `--locale` (e.g. 'de'): vscode.env.language, so the extension's l10n bundle. */
  locale?: string;
  /**
   * Why this scenario cannot run on `target` (a workbench difference between the tested VS Code
   * versions), or undefined when it can. The runner prints `SKIP <id> on VS Code <v>: <why>` for
   * it, never a PASS.
   */
  unsupportedOn?(target: VsCodeTarget): string | undefined;
  run(ctx: ScenarioContext): Promise<void>;
}
