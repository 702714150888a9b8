// The web bundle's twin of asciiText.ts: a browser has no Buffer, so every chunk goes through the
// streaming UTF-8 decoder (the same text, only slower on ASCII).
export function asciiText(_bytes: Uint8Array): string | undefined {
  return undefined;
}
