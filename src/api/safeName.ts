// Turns a name chosen by the server (an artifact or file name) into one safe to use as a single
// path segment on any OS: no traversal, separators, device names or invisible characters.

const WINDOWS_RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;
const MAX_NAME_LENGTH = 200;

/**
 * A file name with no directory part that cannot climb out of the target folder: separators,
 * control characters and characters Windows forbids become `_`; `..`, leading dots, trailing dots
 * and spaces are dropped; device names (CON, NUL, COM1, ...) get a `_` prefix. Never empty.
 */
export function safeFileName(name: unknown, fallback = 'download'): string {
  let text = typeof name === 'string' ? name.normalize('NFC') : '';
  text = text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '');
  text = text.replace(/[/\\:*?"<>|]/g, '_');
  text = text.replace(/\.{2,}/g, '.');
  text = text.replace(/^[.\s]+/, '');
  text = text.replace(/[.\s]+$/, '').trim();
  if (text.length > MAX_NAME_LENGTH) {
    const dot = text.lastIndexOf('.');
    const ext = dot > 0 && text.length - dot <= 16 ? text.slice(dot) : '';
    text = text.slice(0, MAX_NAME_LENGTH - ext.length) + ext;
  }
  if (text === '' || /^_+$/.test(text)) {
    return fallback === 'download' ? fallback : safeFileName(fallback);
  }
  // Windows drops trailing spaces and dots before matching a device name: "CON .txt" is CON.
  const stem = text.split('.')[0].replace(/[\s.]+$/, '');
  if (WINDOWS_RESERVED.test(stem)) {
    text = `_${text}`;
  }
  return text;
}
