// Which form a count takes. vscode.l10n.t has no plural rules, so a message with a count is written
// twice, singular and plural, each a literal the extractor sees, and `singular(count, language)`
// picks: Intl.PluralRules' "one" (English and German 1, French 0 and 1). Languages with more forms
// get the plural text for the others, which their translators word to fit. Pure.

/** True when `count` takes the singular form in `language` (a BCP 47 tag; English when unknown). */
export function singular(count: number, language = 'en'): boolean {
  let rules: Intl.PluralRules;
  try {
    rules = new Intl.PluralRules(language);
  } catch {
    rules = new Intl.PluralRules('en');
  }
  return rules.select(count) === 'one';
}
