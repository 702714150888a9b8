// The run panel webview's strings, localised on the host (vscode.l10n) and sent with every reset.
// Literal l10n.t calls so the strings can be extracted; the keys are checked against protocol.ts.
// Placeholders are passed through as themselves: the webview fills them.
import * as vscode from 'vscode';
import type { UiStrings } from './protocol';

export function uiStrings(): UiStrings {
  return {
    copyRunId: vscode.l10n.t('Copy run id'),
    connecting: vscode.l10n.t('Connecting…'),
    live: vscode.l10n.t('Live'),
    reconnectingIn: vscode.l10n.t('Reconnecting in {0} s (attempt {1})', '{0}', '{1}'),
    reconnectingNow: vscode.l10n.t('Reconnecting…'),
    ended: vscode.l10n.t('Ended'),
    failed: vscode.l10n.t('Error'),
    closed: vscode.l10n.t('Stopped'),
    retry: vscode.l10n.t('Retry'),
    signIn: vscode.l10n.t('Sign in'),
    elapsed: vscode.l10n.t('Elapsed'),
    lastSequence: vscode.l10n.t('Sequence'),
    events: vscode.l10n.t('{0} events', '{0}'),
    noPlan: vscode.l10n.t('Waiting for the plan…'),
    planSummary: vscode.l10n.t('{0} planned steps · {1}', '{0}', '{1}'),
    progress: vscode.l10n.t('{0} of {1} steps completed', '{0}', '{1}'),
    progressNoPlan: vscode.l10n.t('{0} steps completed', '{0}'),
    allKinds: vscode.l10n.t('All event kinds'),
    filterKind: vscode.l10n.t('Filter by event kind'),
    search: vscode.l10n.t('Search events'),
    jumpToLatest: vscode.l10n.t('Jump to latest'),
    copyJson: vscode.l10n.t('Copy JSON'),
    expand: vscode.l10n.t('Show raw JSON'),
    running: vscode.l10n.t('running'),
    completed: vscode.l10n.t('completed'),
    stepCompleted: vscode.l10n.t('Step completed'),
    runEnded: vscode.l10n.t('Run ended: {0}', '{0}'),
    omitted: vscode.l10n.t('{0} earlier events are summarised in their steps', '{0}'),
    compactedStep: vscode.l10n.t('{0} tool calls, {1} observations (details not kept)', '{0}', '{1}'),
    waiting: vscode.l10n.t('Waiting for events…'),
    noMatches: vscode.l10n.t('No events match the filter.'),
    summary: vscode.l10n.t('Summary'),
    status: vscode.l10n.t('Status'),
    totalDuration: vscode.l10n.t('Total duration'),
    steps: vscode.l10n.t('Steps'),
    stepsOf: vscode.l10n.t('{0} of {1} completed', '{0}', '{1}'),
    artifacts: vscode.l10n.t('Artifacts'),
    artifactsLoading: vscode.l10n.t('Loading artifacts…'),
    artifactsNone: vscode.l10n.t('This run produced no artifacts.'),
    artifactsFailed: vscode.l10n.t('Could not list the artifacts: {0}', '{0}'),
    artifactsTruncated: vscode.l10n.t('Only the first {0} artifacts are listed.', '{0}'),
    open: vscode.l10n.t('Open'),
    save: vscode.l10n.t('Save'),
  };
}
