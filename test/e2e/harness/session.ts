// One editor session: a fresh run folder, code-server on a free port and a fresh browser
// context on its workbench; close() stops all of it, even after a failure.
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { newWorkbenchPage } from './browser';
import { type CodeServer, startCodeServer } from './codeServer';
import { type VsCodeTarget } from './paths';
import { createRunFolder, type RunFolder, type RunFolderOptions } from './runFolder';
import { Workbench } from './workbench';

export interface SessionOptions extends RunFolderOptions {
  /** Environment for code-server and the extension host (keys go here, never into settings). */
  env?: Record<string, string | undefined>;
  /** Query parameters added to the workbench URL (e.g. payload). */
  query?: Record<string, string>;
  /** code-server's `--locale`. */
  locale?: string;
  /** Which VS Code (default: the one E2E_VSCODE names, else the newest). */
  target?: VsCodeTarget;
  /** Keep the run folder after close() (for debugging a failure). */
  keep?: boolean;
}

export interface Session {
  run: RunFolder;
  server: CodeServer;
  context: BrowserContext;
  page: Page;
  workbench: Workbench;
  /** Page console errors and uncaught page errors seen so far. */
  consoleErrors: string[];
  close(options?: { keep?: boolean }): Promise<void>;
}

export async function openSession(browser: Browser, options: SessionOptions): Promise<Session> {
  const run = createRunFolder(options);
  let server: CodeServer | undefined;
  let context: BrowserContext | undefined;
  const close = async (closeOptions: { keep?: boolean } = {}): Promise<void> => {
    await context?.close().catch(() => undefined);
    await server?.stop();
    if (!(closeOptions.keep ?? options.keep)) {
      run.remove();
    }
  };
  try {
    server = await startCodeServer(run, { env: options.env, locale: options.locale, target: options.target });
    const opened = await newWorkbenchPage(browser);
    context = opened.context;
    const consoleErrors: string[] = [];
    opened.page.on('console', (m) => {
      if (m.type() === 'error') {
        consoleErrors.push(m.text().slice(0, 500));
      }
    });
    opened.page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${String(e).slice(0, 500)}`));
    const workbench = new Workbench(opened.page);
    await workbench.open(server.workbenchUrl(options.query));
    return { run, server, context, page: opened.page, workbench, consoleErrors, close };
  } catch (err) {
    await close();
    throw err;
  }
}
