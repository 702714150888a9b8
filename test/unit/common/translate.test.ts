// The stand-in for vscode.l10n.t used by pure code and tests.
import * as assert from 'node:assert/strict';
import { untranslated } from '../../../src/common/translate';

describe('views/translate', () => {
  it('fills positional placeholders and leaves unknown ones alone', () => {
    assert.equal(untranslated('{0} of {1}', 2, 'five'), '2 of five');
    assert.equal(untranslated('{0} and {3}', 'a'), 'a and {3}');
  });
});
