// The one sentence a user sees for an error, in the user's language: the API layer's builder
// (errorSentence, which also writes describeError's English for the logs) said through vscode.l10n.t.
import { errorSentence } from '../api/errorSentences';
import { vscodeTranslate } from '../common/vscodeTranslate';

/** describeError's sentence in the user's language; never contains an API key. */
export function describeErrorForUser(err: unknown): string {
  return errorSentence(err, vscodeTranslate);
}
