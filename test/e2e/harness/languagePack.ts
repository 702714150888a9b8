// Makes code-server's `--locale` take effect offline. VS Code reports a language (vscode.env.language,
// which picks an extension's l10n/bundle.l10n.<lang>.json and package.nls.<lang>.json) only when a
// language pack for it is installed; without one it falls back to English whatever --locale says.
// This registers a pack for `locale` that translates nothing of VS Code itself, in the run folder's
// user data (languagepacks.json, as the language pack extensions write it): the editor's own words
// stay English and the extension's come from its own translations.
import * as fs from 'node:fs';
import * as path from 'node:path';

export function registerEmptyLanguagePack(userDataDir: string, locale: string): void {
  const translations = path.join(userDataDir, 'e2e-language-pack', `${locale}.i18n.json`);
  fs.mkdirSync(path.dirname(translations), { recursive: true });
  fs.writeFileSync(translations, JSON.stringify({ contents: {} }));
  const extension = { extensionIdentifier: { id: `e2e.empty-language-pack-${locale}` }, version: '0.0.0' };
  const packs = {
    [locale]: {
      hash: `e2e-empty-${locale}`,
      extensions: [extension],
      translations: { vscode: translations },
      label: locale,
    },
  };
  fs.writeFileSync(path.join(userDataDir, 'languagepacks.json'), JSON.stringify(packs, undefined, 2));
}
