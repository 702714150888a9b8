// The path of a review document: the workspace file's own, so VS Code's multi-file diff (which
// calls a pair whose paths differ a rename) shows each file once, as modified; no side in words.
import '../views/vscodeStub';
import * as assert from 'node:assert/strict';
import { reviewDocPath } from '../../../src/reviewUi/reviewContent';

describe('reviewUi/reviewContent: the path of a review document', () => {
  it("is the workspace file's path, whatever the side", () => {
    assert.equal(reviewDocPath('/home/me/notes/src/app.txt', 'src/app.txt'), '/home/me/notes/src/app.txt');
    assert.equal(reviewDocPath('/c:/Users/me/app.txt', 'app.txt'), '/c:/Users/me/app.txt');
  });

  it('without a workspace path: the relative path under /, no empty, . or .. parts', () => {
    assert.equal(reviewDocPath(undefined, 'src/app.txt'), '/src/app.txt');
    assert.equal(reviewDocPath('', 'a//./b/../c.md'), '/a/b/c.md');
    assert.equal(reviewDocPath('/', '../../'), '/file');
    assert.equal(reviewDocPath('relative/path', 'x.md'), '/x.md');
  });
});
