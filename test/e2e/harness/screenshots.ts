// Screenshots into <repo>/test-results/screenshots/<set>/, numbered in the order taken.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Page } from 'playwright-core';
import { screenshotsDir } from './paths';

export class Screenshots {
  readonly dir: string;
  private count = 0;

  constructor(set: string) {
    this.dir = path.join(screenshotsDir(), set);
    fs.rmSync(this.dir, { recursive: true, force: true });
    fs.mkdirSync(this.dir, { recursive: true });
  }

  /** Takes one; a failure to screenshot (page gone) never hides the test's own result. */
  async take(page: Page, name: string): Promise<string | undefined> {
    const file = path.join(this.dir, `${String(++this.count).padStart(2, '0')}-${name.replace(/[^\w.-]+/g, '-')}.png`);
    try {
      await page.screenshot({ path: file, timeout: 10_000 });
      return file;
    } catch {
      return undefined;
    }
  }
}
