// A real git repository in a temp folder, for the project tests (runtime, working tree).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** git run in `dir` as a test user (no signing), its output trimmed. */
export function gitIn(dir: string): (...args: string[]) => string {
  return (...args: string[]): string =>
    execFileSync(
      'git',
      [
        '-C',
        dir,
        '-c',
        'user.name=Test',
        '-c',
        'user.email=test@example.invalid',
        '-c',
        'commit.gpgsign=false',
        ...args,
      ],
      { encoding: 'utf8' },
    ).trim();
}

/** A real repository in a temp folder: README.md and src/app.ts committed on main. */
export function makeRepository(): { dir: string; git: (...args: string[]) => string; commit: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'project-repo-'));
  const git = gitIn(dir);
  git('init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(dir, 'README.md'), '# Demo\n\nOne.\nTwo.\nThree.\n');
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src', 'app.ts'), 'export const a = 1;\nexport const b = 2;\n');
  git('add', '.');
  git('commit', '-q', '-m', 'first');
  return { dir, git, commit: git('rev-parse', 'HEAD') };
}
