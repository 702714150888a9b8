// The README's pictures are taken by the UI suite itself: with E2E_DOCS_IMAGES=1 a scenario's
// shot is also copied to docs/images/<name>.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../harness/paths';
import type { ScenarioContext } from '../types';

export async function docsShot(ctx: ScenarioContext, name: string): Promise<void> {
  const file = await ctx.shots.take(ctx.page, name);
  if (process.env.E2E_DOCS_IMAGES !== '1' || !file) {
    return;
  }
  const target = path.join(repoRoot(), 'docs', 'images', `${name}.png`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(file, target);
}
