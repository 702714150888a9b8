// The translation function the pure view modules take, so they stay free of `vscode`:
// the tree passes vscode.l10n.t, tests pass `untranslated`.

/** Same shape as vscode.l10n.t's positional form: `{0}`, `{1}`... are replaced by the args. */
export type Translate = (message: string, ...args: Array<string | number | boolean>) => string;

/** Fills `{n}` placeholders without translating, as vscode.l10n.t does when no bundle is loaded. */
export const untranslated: Translate = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? whole : String(value);
  });
