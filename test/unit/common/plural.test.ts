// Messages with a count are written in a singular and a plural form ("1 file", "3 files"), never
// "file(s)"; singular() picks the form by the display language's plural rules.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { singular } from '../../../src/common/plural';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

describe('common/plural', () => {
  it('takes the singular where the language does: 1 in English and German, 0 and 1 in French', () => {
    assert.deepEqual(
      [0, 1, 2, 21].map((n) => singular(n, 'en')),
      [false, true, false, false],
    );
    assert.deepEqual(
      [0, 1, 2].map((n) => singular(n, 'de')),
      [false, true, false],
    );
    assert.deepEqual(
      [0, 1, 2].map((n) => singular(n, 'fr')),
      [true, true, false],
    );
    assert.equal(singular(1, 'not a language tag!'), true, 'an unknown tag falls back to English');
  });

  it('no message of the extension or its manifest writes a plural as "(s)"', () => {
    const files = ['l10n/bundle.l10n.json', 'l10n/bundle.l10n.de.json', 'package.nls.json', 'package.nls.de.json'];
    for (const file of files) {
      const bundle = JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;
      const texts = Object.entries(bundle).flatMap(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
      const bad = texts.filter((text) => /\p{L}\((s|en|e|n|r)\)/u.test(text));
      assert.deepEqual(bad, [], `${file} writes plurals with parentheses`);
    }
  });
});
