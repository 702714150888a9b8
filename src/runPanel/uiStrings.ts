// The run panel webview's strings, written once: the host sends them through vscode.l10n.t in
// every reset (runPanel.ts: uiStringTable(vscodeTranslate)); the webview falls back to the English
// (DEFAULT_UI_STRINGS) for a key an older host did not send. Placeholders are passed through as
// themselves: the webview fills them. Pure: no vscode (scripts/l10n-strings.js extracts the `t` calls).
import { type Translate, untranslated } from '../common/translate';
import { type RunActionLabelKey, runActionLabels } from '../runEvents/runActions';
import { type SpendWords, spendWords } from '../runEvents/spendMeter';

function fixedUiStrings(t: Translate) {
  return {
    copyRunId: t('Copy run id'),
    connecting: t('Connecting…'),
    live: t('Live'),
    reconnectingIn: t('Reconnecting in {0} s (attempt {1})', '{0}', '{1}'),
    reconnectingNow: t('Reconnecting…'),
    ended: t('Ended'),
    failed: t('Error'),
    retry: t('Retry'),
    signIn: t('Sign in'),
    elapsed: t('Elapsed'),
    lastSequence: t('Sequence'),
    events: t('{0} events', '{0}'),
    noPlan: t('Waiting for the plan…'),
    planSummary: t('{0} planned steps · {1}', '{0}', '{1}'),
    progress: t('{0} of {1} steps completed', '{0}', '{1}'),
    progressNoPlan: t('{0} steps completed', '{0}'),
    allKinds: t('All event kinds'),
    filterKind: t('Filter by event kind'),
    search: t('Search events'),
    jumpToLatest: t('Jump to latest'),
    copyJson: t('Copy JSON'),
    expand: t('Show raw JSON'),
    running: t('running'),
    completed: t('completed'),
    stepCompleted: t('Step completed'),
    runEnded: t('Run ended: {0}', '{0}'),
    omitted: t('{0} earlier events are summarised in their steps', '{0}'),
    compactedStep: t('{0} tool calls, {1} observations (details not kept)', '{0}', '{1}'),
    waiting: t('Waiting for events…'),
    noMatches: t('No events match the filter.'),
    summary: t('Summary'),
    status: t('Status'),
    totalDuration: t('Total duration'),
    steps: t('Steps'),
    stepsOf: t('{0} of {1} completed', '{0}', '{1}'),
    artifacts: t('Artifacts'),
    artifactsLoading: t('Loading artifacts…'),
    artifactsNone: t('This run produced no artifacts.'),
    artifactsFailed: t('Could not list the artifacts: {0}', '{0}'),
    artifactsTruncated: t('Only the first {0} artifacts are listed.', '{0}'),
    open: t('Open'),
    otherKinds: t('Other kinds'),
    eventTruncated: t('truncated: {0} bytes as sent', '{0}'),
    openEvent: t('Open as JSON'),
    /** Record links of an expanded row: a tool call's invocation record, a memory entry. */
    openInvocation: t('Open tool call record'),
    openMemoryEntry: t('Open memory {0}', '{0}'),
    moreRecordLinks: t('{0} more in the JSON', '{0}'),
    /** The approval card's link to the tool's description. */
    openToolDescription: t('Tool description'),
    save: t('Save'),
    cancelling: t('Cancelling…'),
    approve: t('Approve'),
    deny: t('Deny'),
    approvalWaits: t('{0} waits for your approval', '{0}'),
    approvalWhy: t('Why: {0}', '{0}'),
    approvalMeta: t('Asked at event #{0} · expires {1}', '{0}', '{1}'),
    approvalArguments: t('Arguments'),
    approvalArgumentsCut: t('Arguments, shown in part (Approve shows them whole first)'),
    approvalResolved: t('The approval was {0}.', '{0}'),
    cost: t('Cost'),
    /** The header's button for the run's review comments not sent yet (RunInfo.draftComments). */
    sendComment: t('Send 1 Comment to the Agent...'),
    sendComments: t('Send {0} Comments to the Agent...', '{0}'),
    loadEarlier: t('{0} earlier events: scroll up or press Enter to load them', '{0}'),
    loadEarlierUnknown: t('Earlier events: scroll up or press Enter to load them'),
    loadLater: t('Later events: scroll down or press Enter to load them'),
    loadingEvents: t('Loading events…'),
    jumpToNewest: t('Jump to newest ({0} new)', '{0}'),
    goToSequence: t('Go to sequence (Ctrl+G)'),
    goToSequencePlaceholder: t('Go to #'),
    findNext: t('Next match (F3)'),
    findPrevious: t('Previous match (Shift+F3)'),
    findCount: t('{0} of {1}', '{0}', '{1}'),
    findProgress: t('{0}+ so far ({1}% searched)', '{0}', '{1}'),
    findNone: t('No results'),
    findSearching: t('Searching…'),
    filterTool: t('Filter by tool'),
    allTools: t('All tools'),
    filterStep: t('Filter by step'),
    allSteps: t('All steps'),
    filterStatus: t('Filter by status'),
    allStatuses: t('Any status'),
    statusProblems: t('Problems'),
    statusApprovals: t('Approvals'),
    outline: t('Outline of steps'),
    outlineToggle: t('Show or hide the outline of steps'),
    exportMarkdown: t('Export as Markdown…'),
    exportJsonl: t('Export as JSON lines…'),
    openTranscript: t('Open as text'),
    timelineLabel: t('Run events'),
    announceStep: t('Step started: {0}', '{0}'),
    announceSteps: t('{0} new steps', '{0}'),
    announceCompleted: t('Step completed: {0}', '{0}'),
    announceCompletedMany: t('{0} steps completed', '{0}'),
    announceProblem: t('Failure: {0}', '{0}'),
    announceProblems: t('{0} failures', '{0}'),
    announceApproval: t('Approval requested: {0}', '{0}'),
    announceApprovals: t('{0} approval requests', '{0}'),
    /** The header's spend meter (its wordings are spendWords) and what a screen reader hears at 50, 80 and 100 per cent. */
    spendCap: t('Spending cap'),
    announceSpend: t('{0} % of the spending cap reached: {1}', '{0}', '{1}'),
    gotoInvalid: t('Type an event number, for example 42'),
    /** The run's log reached its size limit (RunInfo.logCappedAfter). */
    logCapped: t(
      "This run's log reached its size limit after event #{0}: paging, find, filters and export stop there; later events show only as they arrive.",
      '{0}',
    ),
    /** The find bar's status while the log stops early: the status, then the last event searched. */
    findCapped: t('{0} · searched up to #{1}', '{0}', '{1}'),
    /** The base URL changed under the panel: {0} the new service, {1} the run, {2} the panel's service. */
    serviceChanged: t(
      'The service changed to {0}. This panel stays with run {1} of {2} and its log: switch back and Retry, or close this panel and open the run again.',
      '{0}',
      '{1}',
      '{2}',
    ),
  };
}

/** Every string of the panel: the fixed ones, and the run actions' labels (`runAction.<id>`, each row of RUN_ACTIONS writes its own). */
export function uiStringTable(
  t: Translate,
): ReturnType<typeof fixedUiStrings> & SpendWords & Record<RunActionLabelKey, string> {
  return { ...fixedUiStrings(t), ...spendWords(t), ...runActionLabels(t) };
}

export type UiStringKey = keyof ReturnType<typeof uiStringTable>;

/** The webview's strings in English, by key. */
export const DEFAULT_UI_STRINGS: Readonly<Record<UiStringKey, string>> = uiStringTable(untranslated);
