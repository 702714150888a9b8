// The README's pictures are taken by the UI suite itself: with E2E_DOCS_IMAGES=1 a scenario's
// shot is also copied to docs/images/<name>.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../harness/paths';
import type { ScenarioContext } from '../types';

/**
 * Settings for a scenario whose shots are the README's pictures: VS Code 1.139 opens the Chat view
 * in the secondary side bar by default, which takes a fifth of the 1400 px window from the run
 * panel; hidden, the pictures keep one layout on every tested VS Code (1.100 ignores the setting).
 * The other scenarios keep the product's default, Chat view and all.
 */
export const PICTURE_SETTINGS: Record<string, unknown> = { 'workbench.secondarySideBar.defaultVisibility': 'hidden' };

export async function docsShot(ctx: ScenarioContext, name: string): Promise<void> {
  const file = await ctx.shots.take(ctx.page, name);
  if (process.env.E2E_DOCS_IMAGES !== '1' || !file) {
    return;
  }
  const target = path.join(repoRoot(), 'docs', 'images', `${name}.png`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(file, target);
}
