// WEBVIEW_SITE=own for the UI benches (panel-latency, typing): the workbench's webviews are served
// from another site of the same code-server, so that Chromium gives them a renderer process (and a
// main thread) of their own, as desktop VS Code (vscode-webview://) and vscode.dev (a
// {{uuid}}.vscode-cdn.net origin per webview) do.
//
// code-server has no setting for it: its server always sets the workbench option `webviewEndpoint`
// to its own static route (same origin as the workbench), and the workbench takes that option
// before product.json's `webviewContentExternalBaseUrlTemplate` (checked in code-server 4.100.3
// and 4.139.1). So the bench rewrites that one option in the workbench's page as it loads:
// http://127.0.0.1:PORT/... becomes http://localhost:PORT/... (the same server; localhost is
// another site than 127.0.0.1 for Chromium's site isolation, and a secure context for the
// webview's service worker). A user gets the same by putting code-server behind a proxy that
// rewrites it; the figures say what that would buy.
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumExecutable, launchChromium, newWorkbenchPage, VIEWPORT } from '../e2e/harness/browser';

export function webviewSiteWanted(): boolean {
  return process.env.WEBVIEW_SITE === 'own';
}

/**
 * Playwright turns third-party storage partitioning off, and its contexts block third-party
 * cookies, so a webview on another site could not register its service worker ("The user denied
 * permission to use Service Worker"). With WEBVIEW_SITE=own the bench gives Chromium Playwright's
 * own list of features to turn off (the last --disable-features counts) without that one.
 */
const DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
];

export function launchBenchChromium(home: string): Promise<Browser> {
  if (!webviewSiteWanted()) {
    return launchChromium(home);
  }
  return chromium.launch({
    executablePath: chromiumExecutable(),
    headless: true,
    args: [...CHROMIUM_ARGS, `--disable-features=${DISABLED_FEATURES.join(',')}`],
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: `${home}/.config`, XDG_CACHE_HOME: `${home}/.cache` },
  });
}

/**
 * The workbench's page; with WEBVIEW_SITE=own in a context that does not enforce CSP: the
 * workbench's own policy allows frames only from itself and https://*.vscode-cdn.net (this also
 * lifts the panel's policy, which costs nothing measurable either way).
 */
export async function benchPage(browser: Browser): Promise<Page> {
  if (!webviewSiteWanted()) {
    return (await newWorkbenchPage(browser)).page;
  }
  const context = await browser.newContext({ viewport: VIEWPORT, bypassCSP: true });
  return context.newPage();
}

/** Serves the webviews of the workbench at `origin` (http://127.0.0.1:PORT) from http://localhost:PORT. */
export async function webviewsOnAnotherSite(page: Page, origin: string): Promise<void> {
  // {{uuid}}: the workbench puts each webview's own origin id there, as for vscode-cdn.net; the
  // webview's page checks that its host name starts with it.
  const other = origin.replace('//127.0.0.1:', '//{{uuid}}.localhost:');
  if (other === origin) {
    throw new Error(`WEBVIEW_SITE=own needs code-server on 127.0.0.1, not ${origin}`);
  }
  // In the page, before the workbench reads its configuration (a document served by the bench
  // itself instead, through a route, counts as a public one and may not reach 127.0.0.1).
  await page.addInitScript(`(() => {
    if (window.top !== window || location.origin !== ${JSON.stringify(origin)}) return;
    new MutationObserver((records, observer) => {
      const meta = document.getElementById('vscode-workbench-web-configuration');
      if (!meta) return;
      observer.disconnect();
      const settings = JSON.parse(meta.getAttribute('data-settings'));
      const endpoint = new URL(settings.webviewEndpoint, location.href).toString();
      settings.webviewEndpoint = endpoint.replace(${JSON.stringify(origin)}, ${JSON.stringify(other)});
      meta.setAttribute('data-settings', JSON.stringify(settings));
      window.__webviewEndpoint = settings.webviewEndpoint;
    }).observe(document, { childList: true, subtree: true });
  })()`);
}

/** Whether the webviews got frames out of the workbench's process (Chromium's own targets). */
export async function webviewProcessNote(browser: Browser): Promise<string> {
  const session = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = (await session.send('Target.getTargets')) as {
      targetInfos: { type: string; url: string }[];
    };
    const iframes = targetInfos.filter((t) => t.type === 'iframe' && /localhost/.test(t.url));
    return iframes.length > 0
      ? `webviews on another site: ${iframes.length} out-of-process frame(s) (${iframes[0].url.slice(0, 60)}...)`
      : 'webviews on another site asked for, but no out-of-process frame found';
  } finally {
    await session.detach();
  }
}
