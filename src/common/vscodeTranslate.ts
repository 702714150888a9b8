// vscode.l10n.t as the `Translate` the pure modules take (src/review, src/views/format.ts...), for
// callers that only pass it on. A file that calls it with its own strings declares its own
// `const t: Translate` instead, so scripts/l10n-strings.js can see and extract those strings.
import * as vscode from 'vscode';
import { singular } from './plural';
import type { Translate } from './translate';

export const vscodeTranslate: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

/** `singular` (plural.ts) in the editor's display language. */
export const isSingular = (count: number): boolean => singular(count, vscode.env.language);
