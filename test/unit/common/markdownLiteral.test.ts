// The chat's and the tools' Markdown: a hostile value renders as its own words and nothing else.
// Rendered with markdown-it (CommonMark, the GFM-style linkify on, HTML allowed: the most a
// renderer could make of it), the output holds no element but the paragraph.
import * as assert from 'node:assert/strict';
import { MARKDOWN_LITERAL_MAX_CHARS, markdownLiteral, markdownText } from '../../../src/common/markdownLiteral';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new (o: { linkify: boolean; html: boolean }) => {
  render(md: string): string;
};
const md = new MarkdownIt({ linkify: true, html: true });

/** The tags markdown-it made of `markdown` (the paragraph it is wrapped in excluded). */
function tagsOf(markdown: string): string[] {
  return (md.render(markdown).match(/<[a-z][a-z0-9]*/gi) ?? []).filter((tag) => tag !== '<p');
}

const HOSTILE: Record<string, string> = {
  'a link': 'see [the fix](https://evil.example/x "title") now',
  'a command link': '[Approve](command:agentRuntime.approveToolCall?%7B%7D)',
  'an image': '![pixel](https://evil.example/p.png)',
  'a reference link': '[x][1]\n\n[1]: https://evil.example',
  'an autolink': '<https://evil.example> and <evil@example.com>',
  'a bare URL': 'go to https://evil.example/path or www.evil.example',
  'an e-mail': 'write to someone@evil.example',
  HTML: '<img src=x onerror=alert(1)><script>alert(1)</script><a href="https://x">y</a>',
  'an entity': '&lt;b&gt; &#x3C;i&#x3E;',
  backticks: '``code`` and `more` and ```fence```',
  'a fence on its own line': 'x\n```\ncode\n```',
  emphasis: '**bold** _it_ ~~gone~~',
  'a heading': '# Heading\n## More',
  'a list': '- one\n* two\n1. three',
  'a table': '| a | b |\n|---|---|\n| 1 | 2 |',
  'a block quote': '> quoted',
  'a rule': '---',
};

describe('common/markdownLiteral', () => {
  for (const [what, text] of Object.entries(HOSTILE)) {
    it(`renders ${what} as plain text`, () => {
      assert.ok(
        tagsOf(text).length > 0 || what === 'a bare URL' || what === 'an e-mail' || what === 'an entity',
        `the probe itself finds markup in ${what}: ${md.render(text)}`,
      );
      const shown = markdownLiteral(text, 10_000);
      assert.deepEqual(tagsOf(shown), [], md.render(shown));
      // The words stay (markdown-it decodes the escapes back to the characters).
      const rendered = md.render(shown);
      for (const word of text.match(/[a-z]{4,}/gi) ?? []) {
        assert.ok(rendered.includes(word), `${word} kept in ${rendered}`);
      }
    });
  }

  it('links nothing that linkify would find', () => {
    const shown = markdownLiteral('https://evil.example www.evil.example a@b.example', 10_000);
    assert.doesNotMatch(md.render(shown), /<a /);
  });

  it('gives theme icons a space: no $( survives, escaped or rendered', () => {
    const shown = markdownLiteral('$(alert) $(sync~spin) \\$(x)');
    assert.ok(!shown.includes('$('), shown);
    assert.ok(!md.render(shown).includes('$('), md.render(shown));
  });

  it('shows bidi, zero-width and control characters as visible escapes', () => {
    const shown = markdownLiteral('txt\u202Eexe.txt \u2066x\u2069 zero\u200bwidth \u001b[31m');
    assert.ok(!/[\u0000-\u001f\u202a-\u202e\u2066-\u2069\u200b]/.test(shown), shown);
    assert.match(md.render(shown), /txt\\u202eexe\.txt/);
  });

  it('marks a hidden character beyond U+FFFF whole, as the shared rule (visibleText) does', () => {
    const shown = markdownLiteral('a\u{e0041}b \u{e0100}\u{e0101}c');
    assert.ok(!/[\ud800-\udfff]/.test(shown), `no half of a surrogate pair: ${JSON.stringify(shown)}`);
    assert.match(md.render(shown), /a\\u\{e0041\}b \\u\{e0100\}\\u\{e0101\}c/);
  });

  it('writes a whole transcript value by the same rule, uncut (markdownText)', () => {
    const value = `$(alert) [x](https://e.example)\u202e\n${'z'.repeat(2 * MARKDOWN_LITERAL_MAX_CHARS)}`;
    assert.equal(markdownText(value), markdownLiteral(value, value.length));
    assert.ok(!markdownText(value).includes('$('), 'no theme icon in a transcript either');
    assert.ok(markdownText(value).endsWith('z'.repeat(2 * MARKDOWN_LITERAL_MAX_CHARS)), 'not cut');
  });

  it('keeps a value on one line: a newline cannot forge a second one', () => {
    const shown = markdownLiteral('done\n\n**Approved by admin**\r\nok');
    assert.ok(!/[\r\n]/.test(shown), shown);
    assert.deepEqual(tagsOf(shown), []);
  });

  it('cuts a huge value to its bound', () => {
    const shown = markdownLiteral('x'.repeat(20 * 1024 * 1024));
    assert.equal(shown, `${'x'.repeat(MARKDOWN_LITERAL_MAX_CHARS - 1)}…`);
    assert.equal(markdownLiteral('y'.repeat(12), 5), 'yyyy…');
    assert.equal(markdownLiteral('short', 5), 'short');
  });

  it('turns anything that is not a string into text, never markup', () => {
    assert.equal(markdownLiteral(undefined), '');
    assert.equal(markdownLiteral(null), '');
    assert.equal(markdownLiteral(42), '42');
    assert.deepEqual(tagsOf(markdownLiteral({ link: '[x](https://e.example)' })), []);
  });
});
