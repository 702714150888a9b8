// The one escaping rule for server text in every surface: characters that reorder, hide or break
// text show as visible marks, and everything else stays as it is.
import * as assert from 'node:assert/strict';
import { inert } from '../../../src/common/inertText';
import { escapeControls } from '../../../src/common/logger';
import { markdownText } from '../../../src/common/markdownLiteral';
import { HIDDEN, visibleText } from '../../../src/common/visibleText';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Every character the rule must make visible (the list and the well-known invisible ones). */
const MUST_SHOW = [
  ...range(0x00, 0x1f),
  0x7f,
  ...range(0x80, 0x9f),
  0x00ad,
  0x034f,
  0x061c,
  0x115f,
  0x1160,
  0x17b4,
  0x17b5,
  0x180e,
  ...range(0x200b, 0x200f),
  0x2028,
  0x2029,
  ...range(0x202a, 0x202e),
  ...range(0x2060, 0x206f),
  0x3164,
  ...range(0xfe00, 0xfe0f),
  0xfeff,
  0xffa0,
  ...range(0xfff9, 0xfffb),
  ...range(0x1d173, 0x1d17a),
  ...range(0xe0000, 0xe007f),
  ...range(0xe0100, 0xe01ef),
];

/** A raw hidden character left in a string, by code point (U+FE0F/FE0E right after a letter allowed). */
function rawHidden(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(new RegExp(HIDDEN.source, 'gu'))) {
    found.push(`U+${m[0].codePointAt(0)?.toString(16)}`);
  }
  return found;
}

describe('common/visibleText', () => {
  it('shows every bidi, invisible, filler, tag and control character as a mark, and removes none', () => {
    for (const code of MUST_SHOW) {
      const ch = String.fromCodePoint(code);
      // At the start: an emoji selector is kept only right after a visible character.
      const shown = visibleText(`${ch}b`);
      assert.ok(!shown.includes(ch), `U+${code.toString(16)} is shown raw: ${JSON.stringify(shown)}`);
      assert.match(
        shown,
        /^\\(u[0-9a-f]{4}|u\{[0-9a-f]{5}\}|[nrt])b$/,
        `U+${code.toString(16)} has one visible mark: ${shown}`,
      );
      if (code !== 0xfe0e && code !== 0xfe0f) {
        assert.ok(!visibleText(`a${ch}b`).includes(ch), `U+${code.toString(16)} after a letter`);
      }
    }
  });

  it('keeps the reversed command readable in order, and spells out tag characters', () => {
    assert.equal(visibleText('ls docs; \u202Erm -rf ~'), 'ls docs; \\u202erm -rf ~');
    const tags = [...'rm'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    assert.equal(visibleText(`ok${tags}`), 'ok\\u{e0072}\\u{e006d}');
    assert.equal(visibleText('\u3164\u00ad\u115f\u1160\uffa0'), '\\u3164\\u00ad\\u115f\\u1160\\uffa0');
  });

  it('keeps one emoji or text selector after a visible character, marks runs and strays', () => {
    assert.equal(visibleText('⚠\uFE0F done'), '⚠\uFE0F done');
    assert.equal(visibleText('\u{1F3F3}\uFE0F flag'), '\u{1F3F3}\uFE0F flag', 'after an astral character too');
    assert.equal(visibleText('a\uFE0F\uFE0F'), 'a\uFE0F\\ufe0f', 'a second selector hides a bit: marked');
    assert.equal(visibleText('\uFE0Fstart'), '\\ufe0fstart');
    assert.equal(visibleText('\u202E\uFE0F'), '\\u202e\\ufe0f', 'after a hidden character');
    assert.equal(visibleText('a\u{E0101}'), 'a\\u{e0101}', 'the supplementary selectors never');
  });

  it('keeps line feeds only for multi-line blocks, and ordinary text as it is', () => {
    assert.equal(visibleText('{\n  "a": "b\u200bc"\n}', { lineBreaks: true }), '{\n  "a": "b\\u200bc"\n}');
    assert.equal(visibleText('a\nb\r\tc'), 'a\\nb\\r\\tc');
    const plain = 'Zusammenfassung – 12,1 KB · 日本語 · עברית · café ✅ 👍🏽';
    assert.equal(visibleText(plain), plain);
  });

  it('is the rule of notifications, transcripts and the log as well', () => {
    const hostile = `ls docs; \u202Erm -rf ~ \u{E0072}\u3164\u00ad\u2064`;
    for (const [surface, shown] of [
      ['inert', inert(hostile)],
      ['markdownText', markdownText(hostile)],
      ['log', escapeControls(hostile)],
    ] as const) {
      assert.deepEqual(rawHidden(shown), [], `${surface}: ${shown}`);
      // Markdown escapes the marks' punctuation too; it renders them as written.
      const read = surface === 'markdownText' ? shown.replace(/\\(?=[{}\\])/g, '') : shown;
      for (const mark of ['\\u202e', '\\u{e0072}', '\\u3164', '\\u00ad', '\\u2064']) {
        assert.ok(read.includes(mark), `${surface} shows ${mark}: ${shown}`);
      }
    }
  });
});
