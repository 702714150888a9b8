// "Sign in again" asked once: many requests may fail with 401 at the same moment (two trees,
// a run panel, polling); the user sees one prompt, not one per request.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import type { CommandId } from '../common/ids';
import { notify } from '../common/notify';

export class ReauthPrompt {
  private open = false;
  private shown = 0;

  constructor(private readonly signInCommand: CommandId) {}

  /** Call with any error; prompts only for a rejected key, and only when no prompt is open. */
  handle(err: unknown): void {
    if (!isApiError(err, 'authentication') || this.open) {
      return;
    }
    this.open = true;
    this.shown++;
    const signIn = vscode.l10n.t('Sign In');
    const message =
      err.status === 401
        ? vscode.l10n.t('The Agent Runtime service rejected your API key. Sign in again to go on.')
        : vscode.l10n.t('You are not signed in to the Agent Runtime service.');
    void notify.warn(message, signIn).then(
      async (choice) => {
        if (choice === signIn) {
          await vscode.commands.executeCommand(this.signInCommand);
        }
        this.open = false;
      },
      () => {
        this.open = false;
      },
    );
  }

  /** A new key was stored: a later rejection deserves a new prompt even if the old one was never answered. */
  reset(): void {
    this.open = false;
  }

  /** How many prompts were shown in this window (the tests check "once, not once per request"). */
  get promptCount(): number {
    return this.shown;
  }
}
