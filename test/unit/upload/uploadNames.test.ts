// Names across workspace folders: in a multi-root workspace, files named alike get their folder's
// name in front; unique names, and single-folder workspaces, keep the names they had.
import * as assert from 'node:assert/strict';
import { namesAcrossRoots } from '../../../src/upload/uploadNames';

interface F {
  name: string;
  root?: string;
}

const rootOf = (f: F) => f.root;
const names = (files: F[], roots: number) => namesAcrossRoots(files, rootOf, roots).map((f) => f.name);

describe('upload/uploadNames', () => {
  it('prefixes the workspace folder name to files named alike in two folders', () => {
    assert.deepEqual(
      names(
        [
          { name: 'README.md', root: 'frontend' },
          { name: 'README.md', root: 'backend' },
          { name: 'notes.txt', root: 'backend' },
        ],
        2,
      ),
      ['frontend/README.md', 'backend/README.md', 'notes.txt'],
    );
  });

  it('treats names that differ only in case as alike', () => {
    assert.deepEqual(
      names(
        [
          { name: 'Readme.md', root: 'a' },
          { name: 'README.md', root: 'b' },
        ],
        2,
      ),
      ['a/Readme.md', 'b/README.md'],
    );
  });

  it('applies to folder uploads, whose names already hold the folder path', () => {
    assert.deepEqual(
      names(
        [
          { name: 'src/index.ts', root: 'web' },
          { name: 'src/index.ts', root: 'api' },
        ],
        3,
      ),
      ['web/src/index.ts', 'api/src/index.ts'],
    );
  });

  it('leaves names alone in a single-folder workspace, when unique, and outside every folder', () => {
    assert.deepEqual(
      names(
        [
          { name: 'a.md', root: 'x' },
          { name: 'a.md', root: 'x' },
        ],
        1,
      ),
      ['a.md', 'a.md'],
    );
    assert.deepEqual(
      names(
        [
          { name: 'a.md', root: 'x' },
          { name: 'b.md', root: 'y' },
        ],
        2,
      ),
      ['a.md', 'b.md'],
    );
    assert.deepEqual(names([{ name: 'a.md' }, { name: 'a.md', root: 'y' }], 2), ['a.md', 'y/a.md']);
  });

  it('does not change the files it was given', () => {
    const files: F[] = [
      { name: 'a.md', root: 'x' },
      { name: 'a.md', root: 'y' },
    ];
    namesAcrossRoots(files, rootOf, 2);
    assert.deepEqual(
      files.map((f) => f.name),
      ['a.md', 'a.md'],
    );
  });
});
