// Loads the run panel's webview script in headless Chromium with a stub acquireVsCodeApi (a
// CSP-free harness page), for the page tests and the benchmark. Builds src/webview/main.ts
// with esbuild so it needs no prior `npm run compile`.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { HostMessage, WebviewMessage } from '../../../src/runPanel/protocol';
import { CHROMIUM_ARGS, chromiumExecutable } from '../../e2e/harness/browser';

/** The repository: next to out/ normally, else the working directory (a build into another outDir). */
const ROOT =
  [path.resolve(__dirname, '..', '..', '..', '..'), process.cwd()].find((dir) =>
    fs.existsSync(path.join(dir, 'src', 'webview', 'main.ts')),
  ) ?? process.cwd();

let bundle: Promise<string> | undefined;

export function webviewBundle(): Promise<string> {
  bundle ??= build({
    entryPoints: [path.join(ROOT, 'src', 'webview', 'main.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0].text);
  return bundle;
}

const STUB = `
window.__posted = [];
window.__state = undefined;
window.__setStateCount = 0;
window.acquireVsCodeApi = function () {
  return {
    postMessage: function (m) { window.__posted.push(m); },
    getState: function () { return window.__state; },
    setState: function (s) { window.__state = s; window.__setStateCount++; },
  };
};`;

export interface PanelPage {
  page: Page;
  /** Delivers host messages the way VS Code does (window message events). */
  send(...messages: HostMessage[]): Promise<void>;
  posted(): Promise<WebviewMessage[]>;
  /** URLs the page tried to load (it must try none). */
  requests(): string[];
  /** Evaluates an expression in the page. */
  js<T>(expression: string): Promise<T>;
  /** Waits until an expression in the page is truthy. */
  until(expression: string, arg?: unknown): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** A browser to open the page in (tests share one); without it, one is launched and closed with the page. */
  browser?: Browser;
  width?: number;
  height?: number;
  /** Runs before the page script (e.g. a long-task observer). */
  initScript?: string;
  /** Leave the panel's script out (the benchmark's peer page). */
  withoutPanel?: boolean;
}

export async function openPanelPage(options: HarnessOptions = {}): Promise<PanelPage> {
  const script = options.withoutPanel ? '' : await webviewBundle();
  const css = fs.readFileSync(path.join(ROOT, 'media', 'runPanel.css'), 'utf8');
  const viewport = { width: options.width ?? 900, height: options.height ?? 700 };
  const userDataDir = options.browser ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'run-panel-chromium-'));
  let context: BrowserContext | undefined;
  try {
    context = userDataDir
      ? await chromium.launchPersistentContext(userDataDir, {
          executablePath: chromiumExecutable(),
          args: CHROMIUM_ARGS,
          headless: true,
          viewport,
        })
      : await (options.browser as Browser).newContext({ viewport });
    const page = context.pages()[0] ?? (await context.newPage());
    // Any request the page tries to make is a failure of the "no network" rule.
    const requests: string[] = [];
    await page.route('**/*', (route) => {
      requests.push(route.request().url());
      return route.abort();
    });
    const inline = (code: string) => `<script>${code.replace(/<\/script/gi, '<\\/script')}</script>`;
    const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${css}</style>${inline(`${STUB}\n${options.initScript ?? ''}`)}</head><body><div id="app"></div>${inline(script)}</body></html>`;
    await page.setContent(html, { waitUntil: 'load' });
    if (!options.withoutPanel) {
      await page.waitForFunction('window.__posted.some((m) => m.type === "ready")');
    }
    return {
      page,
      send: async (...messages) => {
        // In-page code is written as strings: the node tests compile without the DOM library.
        await page.evaluate(`for (const m of ${JSON.stringify(messages)}) window.postMessage(m, '*');`);
      },
      posted: () => page.evaluate<WebviewMessage[]>('window.__posted'),
      requests: () => [...requests],
      js: <T>(expression: string) => page.evaluate<T>(expression),
      until: async (expression: string) => {
        await page.waitForFunction(expression);
      },
      close: async () => {
        await context?.close();
        if (userDataDir) {
          fs.rmSync(userDataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    await context?.close();
    if (userDataDir) {
      fs.rmSync(userDataDir, { recursive: true, force: true });
    }
    throw err;
  }
}

/** One headless Chromium for a suite (its own fresh profile, removed by close()). */
export async function launchBrowser(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS, headless: true });
  return { browser, close: () => browser.close() };
}
