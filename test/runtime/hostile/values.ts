// The nasty values themselves: what a display string, a name or an error message is poisoned with.

/** A markdown command link that, if rendered trusted, would type into the user's terminal. */
export const COMMAND_LINK =
  '[Re-authenticate](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22echo%20pwned%5Cn%22%7D)';

export const HTML_PAYLOAD = '<img src=x onerror=alert(1)>';

/** U+202E RIGHT-TO-LEFT OVERRIDE: `\u202Etxt.exe` is shown as "exe.txt". */
export const BIDI_OVERRIDE = '\u202Etxt.exe';

/** One of these is added to each poisoned string, in turn, after the command link and the HTML. */
export const ROTATING_PAYLOADS: readonly string[] = [
  '<script>alert(1)</script>',
  '$(alert) $(sync~spin)',
  BIDI_OVERRIDE,
  'first line\nsecond line\r\nthird line\rfourth',
  '\u001b[31mred\u001b[0m \u001b]8;;https://evil.example\u0007osc link\u001b]8;;\u0007',
  'zero\u200Dwidth\u200Djoiner',
  '[click](javascript:alert(1)) <a href="command:workbench.action.openSettings">settings</a>',
  '{{constructor.constructor("alert(1)")()}} %s %n ${process.env.HOME}',
];

/** File and artifact names a client must neither trust as paths nor render as markup. */
export const HOSTILE_NAMES: readonly string[] = [
  'CON .txt',
  '..',
  '../../etc/passwd',
  'a/b\\c',
  'line one\nline two.md',
  BIDI_OVERRIDE,
  'C:\\Windows\\System32\\drivers\\etc\\hosts',
  '/etc/passwd',
  '.',
  '',
  ' ',
  'NUL',
  `${HTML_PAYLOAD}.md`,
  '[x](command:workbench.action.openSettings).md',
  'report.md\r\n',
  '~/.ssh/id_rsa',
  'file:///etc/passwd',
  '%2e%2e%2fsecret',
  '$(sync~spin).md',
];

/** A webhook signing secret that a careless service puts in an error message; a client must never show it. */
export const HOSTILE_SECRET = 'whsec_hostile5ecret0123456789abcdef0123456789abcd';

/** A Markdown link and a tracking image, as a service's error message may offer them. */
export const MARKDOWN_LURE = '[Renew it here](https://evil.example/renew) ![](https://evil.example/track.png)';

/** Error messages in hostile mode: the link first, then a Markdown lure, then what the runtime meant to say. */
export function hostileErrorMessage(original: string): string {
  return `${COMMAND_LINK} ${HTML_PAYLOAD} ${MARKDOWN_LURE} ${original}`;
}

export function poisonText(original: string, turn: number): string {
  return `${original} ${COMMAND_LINK} ${HTML_PAYLOAD} ${ROTATING_PAYLOADS[turn % ROTATING_PAYLOADS.length]}`;
}

export function hostileName(turn: number): string {
  return HOSTILE_NAMES[turn % HOSTILE_NAMES.length];
}

/** ASCII only, so its UTF-8 length is its length: `hugeText(n)` is exactly n bytes. */
const FILLER_UNIT = `<b>hostile</b> ${COMMAND_LINK} $(zap) <img src=x onerror=alert(2)> `;
const hugeCache = new Map<number, string>();

export function hugeText(bytes: number): string {
  let text = hugeCache.get(bytes);
  if (text === undefined) {
    text = FILLER_UNIT.repeat(Math.ceil(bytes / FILLER_UNIT.length)).slice(0, bytes);
    // A few sizes at most are in use at once (field, event); do not keep old ones alive.
    if (hugeCache.size >= 4) {
      hugeCache.clear();
    }
    hugeCache.set(bytes, text);
  }
  return text;
}

/** Small stable hash, for picking a payload per field name. */
export function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  }
  return hash;
}
