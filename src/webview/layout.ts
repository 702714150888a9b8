// The run panel's DOM, built once: header, plan and progress, toolbar, find bar, timeline,
// summary and artifacts; and its static labels in the host's language. What fills it from the
// view model is in render.ts (header, summary, artifacts) and renderRows.ts (the rows).
import type { UiStrings } from '../runPanel/protocol';
import { codicon, el, elWithId, hiddenTextButton, iconButton, setButtonLabel, setText } from './dom';
import type { Filter } from './filter';

export interface Layout {
  root: HTMLElement;
  statusIcon: HTMLElement;
  runId: HTMLElement;
  copyRunId: HTMLButtonElement;
  status: HTMLElement;
  objective: HTMLElement;
  connection: HTMLElement;
  connectionIcon: HTMLElement;
  connectionText: HTMLElement;
  retry: HTMLButtonElement;
  signIn: HTMLButtonElement;
  elapsedLabel: HTMLElement;
  elapsed: HTMLElement;
  sequenceLabel: HTMLElement;
  lastSequence: HTMLElement;
  eventCount: HTMLElement;
  plan: HTMLElement;
  progressFill: HTMLElement;
  progressBar: HTMLElement;
  progressText: HTMLElement;
  /** Says the run's log stopped at its size limit (hidden while it has room). */
  logCapped: HTMLElement;
  kindFilter: HTMLSelectElement;
  toolFilter: HTMLSelectElement;
  stepFilter: HTMLSelectElement;
  statusFilter: HTMLSelectElement;
  /** The find bar's field (Ctrl+F). */
  search: HTMLInputElement;
  findPrev: HTMLButtonElement;
  findNext: HTMLButtonElement;
  findStatus: HTMLElement;
  gotoInput: HTMLInputElement;
  exportMarkdown: HTMLButtonElement;
  exportJsonl: HTMLButtonElement;
  openTranscript: HTMLButtonElement;
  outlineToggle: HTMLButtonElement;
  outline: HTMLElement;
  outlineTitle: HTMLElement;
  outlineList: HTMLElement;
  timeline: HTMLElement;
  empty: HTMLElement;
  jump: HTMLButtonElement;
  summary: HTMLElement;
  summaryTitle: HTMLElement;
  summaryStatusLabel: HTMLElement;
  summaryStatus: HTMLElement;
  summaryDurationLabel: HTMLElement;
  summaryDuration: HTMLElement;
  summaryStepsLabel: HTMLElement;
  summarySteps: HTMLElement;
  artifactsTitle: HTMLElement;
  artifactsMessage: HTMLElement;
  artifactsList: HTMLElement;
  artifactsRetry: HTMLButtonElement;
  raw: HTMLElement;
  rawTitle: HTMLElement;
  rawCopy: HTMLButtonElement;
  rawOpen: HTMLButtonElement;
  /** The records the expanded event names (runEvents/recordLinks.ts), one button each. */
  rawLinks: HTMLElement;
  rawJson: HTMLElement;
  kindsKey: string;
  toolsKey: string;
  stepsKey: string;
}

export function createLayout(root: HTMLElement, strings: UiStrings): Layout {
  const header = elWithId('header', 'run-header', 'run-header');
  const titleRow = el('div', 'title-row');
  const statusIconEl = codicon('circle-large-outline', 'muted');
  statusIconEl.id = 'status-icon';
  const runId = elWithId('span', 'run-id', 'run-id');
  const copyRunId = iconButton('copy-run-id', 'copy', strings.copyRunId);
  const status = elWithId('span', 'run-status', 'run-status');
  titleRow.append(statusIconEl, runId, copyRunId, status);
  const objective = elWithId('div', 'objective', 'objective');

  const facts = el('div', 'facts');
  const connection = elWithId('span', 'connection-state', 'connection');
  connection.setAttribute('role', 'status');
  const connectionIcon = codicon('plug');
  const connectionTextEl = el('span', 'connection-text');
  connection.append(connectionIcon, connectionTextEl);
  const retry = hiddenTextButton('retry-button', 'refresh', strings.retry);
  const signIn = hiddenTextButton('sign-in-button', 'sign-in', strings.signIn);
  const elapsedLabel = el('span', 'fact-label');
  const elapsed = elWithId('span', 'elapsed', 'fact-value');
  const sequenceLabel = el('span', 'fact-label');
  const lastSequence = elWithId('span', 'last-sequence', 'fact-value');
  const eventCount = elWithId('span', 'event-count', 'fact-value muted');
  facts.append(
    connection,
    retry,
    signIn,
    el('span', 'fact', ''),
    elapsedLabel,
    elapsed,
    el('span', 'fact', ''),
    sequenceLabel,
    lastSequence,
    el('span', 'fact', ''),
    eventCount,
  );

  const planRow = el('div', 'plan-row');
  const plan = elWithId('span', 'plan', 'plan');
  const progressBar = elWithId('div', 'progress', 'progress');
  progressBar.setAttribute('role', 'progressbar');
  progressBar.setAttribute('aria-valuemin', '0');
  // Named by the text beside it ("3 of 5 steps completed"): axe's aria-progressbar-name.
  progressBar.setAttribute('aria-labelledby', 'progress-text');
  const progressFill = el('div', 'progress-fill');
  progressBar.append(progressFill);
  const progressText = elWithId('span', 'progress-text', 'progress-text');
  planRow.append(codicon('list-tree'), plan, progressBar, progressText);
  const logCapped = elWithId('div', 'log-capped', 'log-capped');
  logCapped.setAttribute('role', 'status');
  logCapped.hidden = true;
  header.append(titleRow, objective, facts, planRow, logCapped);

  const toolbar = el('div', 'toolbar');
  toolbar.setAttribute('role', 'toolbar');
  const select = (id: string) => elWithId('select', id, `filter-select ${id}`);
  const kindFilter = select('kind-filter');
  const toolFilter = select('tool-filter');
  const stepFilter = select('step-filter');
  const statusFilter = select('status-filter');
  const filters = el('div', 'filters');
  filters.append(codicon('filter'), kindFilter, toolFilter, stepFilter, statusFilter);

  const findBar = el('div', 'find-bar');
  findBar.setAttribute('role', 'search');
  const search = elWithId('input', 'search', 'search');
  search.type = 'search';
  search.spellcheck = false;
  const findPrev = iconButton('find-prev', 'arrow-up', strings.findPrevious);
  const findNext = iconButton('find-next', 'arrow-down', strings.findNext);
  const findStatus = elWithId('span', 'find-status', 'find-status muted');
  findStatus.setAttribute('role', 'status');
  findBar.append(codicon('search'), search, findStatus, findPrev, findNext);

  const gotoInput = elWithId('input', 'goto-sequence', 'goto');
  gotoInput.type = 'text';
  gotoInput.inputMode = 'numeric';
  gotoInput.spellcheck = false;
  const exportMarkdown = iconButton('export-markdown', 'markdown', strings.exportMarkdown);
  const exportJsonl = iconButton('export-jsonl', 'json', strings.exportJsonl);
  const openTranscript = iconButton('open-transcript', 'go-to-file', strings.openTranscript);
  const outlineToggle = iconButton('outline-toggle', 'list-tree', strings.outlineToggle);
  outlineToggle.setAttribute('aria-controls', 'outline');
  outlineToggle.setAttribute('aria-expanded', 'true');
  const actions = el('div', 'toolbar-actions');
  actions.append(gotoInput, outlineToggle, exportMarkdown, exportJsonl, openTranscript);
  toolbar.append(filters, findBar, actions);

  const body = el('div', 'panel-body');
  const outline = elWithId('nav', 'outline', 'outline');
  const outlineTitle = elWithId('h2', 'outline-title', 'section-title outline-title');
  outline.setAttribute('aria-labelledby', 'outline-title');
  const outlineList = elWithId('div', 'outline-list', 'outline-list');
  outlineList.setAttribute('role', 'list');
  outlineList.setAttribute('aria-labelledby', 'outline-title');
  outlineList.tabIndex = 0;
  outline.append(outlineTitle, outlineList);

  const timelineWrap = el('div', 'timeline-wrap');
  const timeline = elWithId('div', 'timeline', 'timeline');
  timeline.setAttribute('role', 'list');
  timeline.tabIndex = 0;
  const empty = elWithId('div', 'timeline-empty', 'empty');
  const jump = hiddenTextButton('jump-to-latest', 'arrow-down', strings.jumpToLatest);
  timelineWrap.append(timeline, empty, jump);
  body.append(outline, timelineWrap);

  const summary = elWithId('section', 'summary', 'summary');
  summary.hidden = true;
  const summaryTitle = el('h2', 'section-title');
  const grid = el('div', 'summary-grid');
  const summaryStatusLabel = el('span', 'fact-label');
  const summaryStatus = elWithId('span', 'summary-status', 'fact-value');
  const summaryDurationLabel = el('span', 'fact-label');
  const summaryDuration = elWithId('span', 'summary-duration', 'fact-value');
  const summaryStepsLabel = el('span', 'fact-label');
  const summarySteps = elWithId('span', 'summary-steps', 'fact-value');
  grid.append(
    summaryStatusLabel,
    summaryStatus,
    summaryDurationLabel,
    summaryDuration,
    summaryStepsLabel,
    summarySteps,
  );
  const artifactsTitle = el('h3', 'section-title');
  const artifactsMessage = elWithId('div', 'artifacts-message', 'artifacts-message');
  const artifactsList = elWithId('ul', 'artifacts', 'artifacts');
  const artifactsRetry = hiddenTextButton('artifacts-retry', 'refresh', strings.retry);
  summary.append(summaryTitle, grid, artifactsTitle, artifactsMessage, artifactsRetry, artifactsList);

  const raw = elWithId('div', 'raw-detail', 'raw');
  // It sits inside the timeline's role=list, whose children must be list items (axe: aria-required-children).
  raw.setAttribute('role', 'listitem');
  const rawBar = el('div', 'raw-bar');
  const rawTitle = el('span', 'raw-title');
  const rawCopy = iconButton('copy-json', 'copy', strings.copyJson, true);
  const rawOpen = iconButton('open-json', 'go-to-file', strings.openEvent, true);
  rawBar.append(codicon('json'), rawTitle, rawCopy, rawOpen);
  // A row of its own under the bar: the bar's buttons leave no room in a narrow panel.
  const rawLinks = elWithId('div', 'record-links', 'record-links');
  rawLinks.hidden = true;
  const rawJson = el('pre', 'raw-json');
  raw.append(rawBar, rawLinks, rawJson);

  root.replaceChildren(header, toolbar, body, summary);
  const layout: Layout = {
    root,
    statusIcon: statusIconEl,
    runId,
    copyRunId,
    status,
    objective,
    connection,
    connectionIcon,
    connectionText: connectionTextEl,
    retry,
    signIn,
    elapsedLabel,
    elapsed,
    sequenceLabel,
    lastSequence,
    eventCount,
    plan,
    progressFill,
    progressBar,
    progressText,
    logCapped,
    kindFilter,
    toolFilter,
    stepFilter,
    statusFilter,
    search,
    findPrev,
    findNext,
    findStatus,
    gotoInput,
    exportMarkdown,
    exportJsonl,
    openTranscript,
    outlineToggle,
    outline,
    outlineTitle,
    outlineList,
    timeline,
    empty,
    jump,
    summary,
    summaryTitle,
    summaryStatusLabel,
    summaryStatus,
    summaryDurationLabel,
    summaryDuration,
    summaryStepsLabel,
    summarySteps,
    artifactsTitle,
    artifactsMessage,
    artifactsList,
    artifactsRetry,
    raw,
    rawTitle,
    rawCopy,
    rawOpen,
    rawLinks,
    rawJson,
    kindsKey: '',
    toolsKey: '',
    stepsKey: '',
  };
  applyStrings(layout, strings);
  return layout;
}

/** Static labels, again on every reset (the host may send other strings). */
export function applyStrings(layout: Layout, strings: UiStrings): void {
  setButtonLabel(layout.copyRunId, strings.copyRunId);
  setButtonLabel(layout.retry, strings.retry);
  setButtonLabel(layout.signIn, strings.signIn);
  setButtonLabel(layout.jump, strings.jumpToLatest);
  setButtonLabel(layout.artifactsRetry, strings.retry);
  setButtonLabel(layout.rawCopy, strings.copyJson);
  setButtonLabel(layout.rawOpen, strings.openEvent);
  setText(layout.elapsedLabel, strings.elapsed);
  setText(layout.sequenceLabel, strings.lastSequence);
  layout.kindFilter.title = strings.filterKind;
  layout.kindFilter.setAttribute('aria-label', strings.filterKind);
  layout.search.placeholder = strings.search;
  layout.search.setAttribute('aria-label', strings.search);
  const label = (node: HTMLElement, text: string) => {
    node.title = text;
    node.setAttribute('aria-label', text);
  };
  label(layout.toolFilter, strings.filterTool);
  label(layout.stepFilter, strings.filterStep);
  label(layout.statusFilter, strings.filterStatus);
  label(layout.gotoInput, strings.goToSequence);
  layout.gotoInput.placeholder = strings.goToSequencePlaceholder;
  layout.timeline.setAttribute('aria-label', strings.timelineLabel);
  setButtonLabel(layout.findPrev, strings.findPrevious);
  setButtonLabel(layout.findNext, strings.findNext);
  setButtonLabel(layout.exportMarkdown, strings.exportMarkdown);
  setButtonLabel(layout.exportJsonl, strings.exportJsonl);
  setButtonLabel(layout.openTranscript, strings.openTranscript);
  setButtonLabel(layout.outlineToggle, strings.outlineToggle);
  setText(layout.outlineTitle, strings.outline);
  const statusChoices: [string, string][] = [
    ['', strings.allStatuses],
    ['problems', strings.statusProblems],
    ['approvals', strings.statusApprovals],
  ];
  const selectedStatus = layout.statusFilter.value;
  layout.statusFilter.replaceChildren(
    ...statusChoices.map(([value, text]) => {
      const option = el('option', undefined, text);
      option.value = value;
      return option;
    }),
  );
  layout.statusFilter.value = selectedStatus;
  layout.toolsKey = '';
  layout.stepsKey = '';
  setText(layout.summaryTitle, strings.summary);
  setText(layout.summaryStatusLabel, strings.status);
  setText(layout.summaryDurationLabel, strings.totalDuration);
  setText(layout.summaryStepsLabel, strings.steps);
  setText(layout.artifactsTitle, strings.artifacts);
  layout.kindsKey = '';
}

/** The filter as the toolbar's selects hold it. */
export function readFilter(layout: Layout): Filter {
  const status = layout.statusFilter.value;
  return {
    kind: layout.kindFilter.value,
    tool: layout.toolFilter.value,
    stepId: layout.stepFilter.value,
    status: status === 'problems' || status === 'approvals' ? status : '',
  };
}
