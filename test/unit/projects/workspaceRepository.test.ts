// A workspace opened from a GitHub repository in the browser (vscode-vfs://github/owner/repo)
// finds its project by the same URL rule as a clone's remote.
import * as assert from 'node:assert/strict';
import { revisionOf } from '../../../src/projects/browserRevision';
import { matchProject } from '../../../src/projects/repositoryUrl';
import { repositoryOfFolder } from '../../../src/projects/workspaceRepository';

const uri = (scheme: string, authority: string, path: string) => ({ scheme, authority, path });

describe('repositoryOfFolder', () => {
  it('reads owner and repository from a GitHub Repositories folder', () => {
    assert.deepEqual(repositoryOfFolder(uri('vscode-vfs', 'github', '/octo-org/hello.world')), {
      url: 'https://github.com/octo-org/hello.world',
      owner: 'octo-org',
      name: 'hello.world',
    });
  });

  it('takes the repository from an authority that carries a ref, never the ref itself', () => {
    const ref = Buffer.from('{"v":1,"ref":{"type":4,"id":"feature/x"}}').toString('hex');
    assert.equal(
      repositoryOfFolder(uri('vscode-vfs', `github+${ref}`, '/octo/repo'))?.url,
      'https://github.com/octo/repo',
    );
    assert.equal(repositoryOfFolder(uri('vscode-vfs', 'GitHub', '/octo/repo/'))?.url, 'https://github.com/octo/repo');
  });

  it('gives nothing for a plain folder, another provider or a path that names no repository', () => {
    assert.equal(repositoryOfFolder(uri('file', '', '/home/me/repo')), undefined);
    assert.equal(repositoryOfFolder(uri('vscode-remote', 'github', '/octo/repo')), undefined);
    assert.equal(repositoryOfFolder(uri('vscode-vfs', 'azurerepos', '/org/project/repo')), undefined);
    assert.equal(repositoryOfFolder(uri('vscode-vfs', 'github', '/octo')), undefined);
    assert.equal(repositoryOfFolder(uri('vscode-vfs', 'github', '/')), undefined);
    assert.equal(repositoryOfFolder(uri('vscode-vfs', 'github', '/../repo')), undefined);
    assert.equal(repositoryOfFolder(uri('vscode-vfs', 'github', '/octo/re po')), undefined);
    assert.equal(repositoryOfFolder(uri('vscode-vfs', 'github', '/user:token@octo/repo')), undefined);
  });

  it('matches the project whose clone URL names the same repository, in any of its forms', () => {
    const projects = [
      { id: 'proj_other', repository: { url: 'https://github.com/octo/other' } },
      { id: 'proj_ssh', repository: { url: 'git@github.com:Octo/Repo.git' } },
    ];
    const found = repositoryOfFolder(uri('vscode-vfs', 'github', '/octo/repo'));
    assert.ok(found);
    assert.equal(matchProject(found.url, projects)?.id, 'proj_ssh');
    const none = repositoryOfFolder(uri('vscode-vfs', 'github', '/octo/missing'));
    assert.ok(none);
    assert.equal(matchProject(none.url, projects), undefined);
  });
});

describe('revisionOf (what the GitHub Repositories extension says is believed only when checked)', () => {
  const sha = 'A'.repeat(40);
  it('takes a branch name and a full commit id', () => {
    assert.deepEqual(revisionOf({ type: 0, name: 'main', revision: sha }), { ref: 'main', commit: sha.toLowerCase() });
    assert.deepEqual(revisionOf({ type: 1, name: 'feature/x', revision: sha }), {
      ref: 'feature/x',
      commit: sha.toLowerCase(),
    });
  });

  it('claims no branch for a tag or a commit, nor a name git would refuse, and no commit unless whole', () => {
    assert.deepEqual(revisionOf({ type: 2, name: 'v1.0', revision: sha }), { commit: sha.toLowerCase() });
    assert.deepEqual(revisionOf({ type: 3, name: sha, revision: sha }), { commit: sha.toLowerCase() });
    assert.deepEqual(revisionOf({ type: 0, name: 'a b', revision: 'abc1234' }), {});
    assert.deepEqual(revisionOf({ type: 0, name: 'ok\u0007', revision: `${sha}0` }), {});
    assert.deepEqual(revisionOf({ type: 0, name: 'x'.repeat(256) }), {});
    for (const answer of [undefined, null, 'main', 42, []]) {
      assert.deepEqual(revisionOf(answer), {});
    }
  });
});
