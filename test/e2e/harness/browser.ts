// Launches Debian's Chromium through playwright-core (never `playwright install`): headless,
// offline-quiet, with a fresh profile that Playwright removes on close.
import * as fs from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { setupError } from './install';

/** scripts/ensure-system-packages.sh looks in the same place. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The Chromium to launch, or a one-line error naming the command that installs it. */
export function chromiumExecutable(): string {
  try {
    fs.accessSync(CHROMIUM, fs.constants.X_OK);
    return CHROMIUM;
  } catch {
    const where = process.env.CHROMIUM_PATH ? `CHROMIUM_PATH=${CHROMIUM}` : CHROMIUM;
    throw setupError(
      `Chromium not found at ${where}: run \`sudo apt-get install -y --no-install-recommends chromium\` ` +
        '(`npm test` installs it itself as root or with password-free sudo), or set CHROMIUM_PATH to another Chromium',
    );
  }
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** `home` keeps Chromium's own files (crash reports, caches) inside the run folder. */
export async function launchChromium(home: string): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumExecutable(),
    headless: true,
    args: CHROMIUM_ARGS,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: `${home}/.config`, XDG_CACHE_HOME: `${home}/.cache` },
  });
}

export const VIEWPORT = { width: 1400, height: 900 };

export async function newWorkbenchPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  return { context, page };
}
