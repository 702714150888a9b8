// Errors are caught at the edge: every command handler runs through `guarded`, which shows the
// one sentence a user can act on, offers the next step, and logs the details.
import * as vscode from 'vscode';
import { isAbort, isApiError } from '../api/errors';
import { describeError } from '../api/errorSentences';
import { Commands } from '../common/ids';
import { notify } from '../common/notify';
import { describeErrorForUser } from './errorText';

export interface ErrorReporter {
  log: vscode.LogOutputChannel;
  /** Asks once to sign in again when the key was rejected. */
  onAuthError(err: unknown): void;
}

/** A problem with what the user asked for (nothing selected, wrong kind of row): shown as it is. */
export class UserFacingError extends Error {
  override readonly name = 'UserFacingError';
}

/** Shows `err` to the user (unless it is a cancellation) and logs it without secrets. */
export function reportError(reporter: ErrorReporter, context: string, err: unknown): void {
  if (isAbort(err)) {
    reporter.log.info(`${context}: cancelled`);
    return;
  }
  if (err instanceof UserFacingError) {
    reporter.log.info(`${context}: ${err.message}`);
    void notify.warn(err.message);
    return;
  }
  const sentence = describeErrorForUser(err);
  const details = isApiError(err)
    ? ` [kind=${err.kind}${err.status ? ` status=${err.status}` : ''}${err.requestId ? ` request=${err.requestId}` : ''}]`
    : '';
  reporter.log.error(`${context}: ${describeError(err)}${details}`);
  if (isApiError(err, 'authentication')) {
    reporter.onAuthError(err);
    return;
  }
  const showLog = vscode.l10n.t('Show Log');
  const openSettings = vscode.l10n.t('Open Settings');
  const proxy = isApiError(err, 'proxy');
  const actions =
    proxy || isApiError(err, 'connection') || isApiError(err, 'insecure') || isApiError(err, 'timeout')
      ? [openSettings, showLog]
      : [showLog];
  void notify.error(sentence, ...actions).then((choice) => {
    if (choice === showLog) {
      reporter.log.show(true);
    }
    // A proxy problem is fixed in VS Code's own http.proxy settings, the rest in ours.
    if (choice === openSettings) {
      void vscode.commands.executeCommand(Commands.openSettings, proxy ? 'http.proxy' : undefined);
    }
  });
}

/** Wraps a command handler so that no rejection escapes it unreported. */
export function guarded<A extends unknown[]>(
  reporter: ErrorReporter,
  context: string,
  handler: (...args: A) => unknown,
): (...args: A) => Promise<unknown> {
  return async (...args: A) => {
    try {
      return await handler(...args);
    } catch (err) {
      reportError(reporter, context, err);
      return undefined;
    }
  };
}
