// Builds the run panel's DOM once and updates it from the view model: header, plan and
// progress, toolbar, summary and artifacts (the timeline's rows are in renderRows.ts). Every
// server string goes in with textContent (through dom.ts), never as markup.
import type { UiStrings } from '../runPanel/protocol';
import { codicon, el, iconButton, setButtonLabel, setIcon, setText } from './dom';
import { formatBytes } from '../common/format';
import { connectionText, elapsedMs, fill, formatDuration, statusIcon, totalDurationMs } from './format';
import { kindsSeen, OTHER_KINDS, type TimelineState } from './reducer';

/** Artifacts drawn at most (the rest are counted). */
const MAX_ARTIFACT_ROWS = 200;

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
  rawJson: HTMLElement;
  kindsKey: string;
  toolsKey: string;
  stepsKey: string;
}

export function createLayout(root: HTMLElement, strings: UiStrings): Layout {
  const header = el('header', 'run-header');
  header.id = 'run-header';
  const titleRow = el('div', 'title-row');
  const statusIconEl = codicon('circle-large-outline', 'muted');
  statusIconEl.id = 'status-icon';
  const runId = el('span', 'run-id');
  runId.id = 'run-id';
  const copyRunId = iconButton('copy-run-id', 'copy', strings.copyRunId);
  const status = el('span', 'run-status');
  status.id = 'run-status';
  titleRow.append(statusIconEl, runId, copyRunId, status);
  const objective = el('div', 'objective');
  objective.id = 'objective';

  const facts = el('div', 'facts');
  const connection = el('span', 'connection');
  connection.id = 'connection-state';
  connection.setAttribute('role', 'status');
  const connectionIcon = codicon('plug');
  const connectionTextEl = el('span', 'connection-text');
  connection.append(connectionIcon, connectionTextEl);
  const retry = iconButton('retry-button', 'refresh', strings.retry, true);
  const signIn = iconButton('sign-in-button', 'sign-in', strings.signIn, true);
  retry.hidden = true;
  signIn.hidden = true;
  const elapsedLabel = el('span', 'fact-label');
  const elapsed = el('span', 'fact-value');
  elapsed.id = 'elapsed';
  const sequenceLabel = el('span', 'fact-label');
  const lastSequence = el('span', 'fact-value');
  lastSequence.id = 'last-sequence';
  const eventCount = el('span', 'fact-value muted');
  eventCount.id = 'event-count';
  facts.append(
    connection, retry, signIn,
    el('span', 'fact', ''), elapsedLabel, elapsed,
    el('span', 'fact', ''), sequenceLabel, lastSequence,
    el('span', 'fact', ''), eventCount,
  );

  const planRow = el('div', 'plan-row');
  const plan = el('span', 'plan');
  plan.id = 'plan';
  const progressBar = el('div', 'progress');
  progressBar.id = 'progress';
  progressBar.setAttribute('role', 'progressbar');
  progressBar.setAttribute('aria-valuemin', '0');
  // Named by the text beside it ("3 of 5 steps completed"): axe's aria-progressbar-name.
  progressBar.setAttribute('aria-labelledby', 'progress-text');
  const progressFill = el('div', 'progress-fill');
  progressBar.append(progressFill);
  const progressText = el('span', 'progress-text');
  progressText.id = 'progress-text';
  planRow.append(codicon('list-tree'), plan, progressBar, progressText);
  header.append(titleRow, objective, facts, planRow);

  const toolbar = el('div', 'toolbar');
  toolbar.setAttribute('role', 'toolbar');
  const select = (id: string) => {
    const node = el('select', `filter-select ${id}`);
    node.id = id;
    return node;
  };
  const kindFilter = select('kind-filter');
  const toolFilter = select('tool-filter');
  const stepFilter = select('step-filter');
  const statusFilter = select('status-filter');
  const filters = el('div', 'filters');
  filters.append(codicon('filter'), kindFilter, toolFilter, stepFilter, statusFilter);

  const findBar = el('div', 'find-bar');
  findBar.setAttribute('role', 'search');
  const search = el('input', 'search');
  search.id = 'search';
  search.type = 'search';
  search.spellcheck = false;
  const findPrev = iconButton('find-prev', 'arrow-up', strings.findPrevious);
  const findNext = iconButton('find-next', 'arrow-down', strings.findNext);
  const findStatus = el('span', 'find-status muted');
  findStatus.id = 'find-status';
  findStatus.setAttribute('role', 'status');
  findBar.append(codicon('search'), search, findStatus, findPrev, findNext);

  const gotoInput = el('input', 'goto');
  gotoInput.id = 'goto-sequence';
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
  const outline = el('nav', 'outline');
  outline.id = 'outline';
  const outlineTitle = el('h2', 'section-title outline-title');
  outlineTitle.id = 'outline-title';
  outline.setAttribute('aria-labelledby', 'outline-title');
  const outlineList = el('div', 'outline-list');
  outlineList.id = 'outline-list';
  outlineList.setAttribute('role', 'list');
  outlineList.setAttribute('aria-labelledby', 'outline-title');
  outlineList.tabIndex = 0;
  outline.append(outlineTitle, outlineList);

  const timelineWrap = el('div', 'timeline-wrap');
  const timeline = el('div', 'timeline');
  timeline.id = 'timeline';
  timeline.setAttribute('role', 'list');
  timeline.tabIndex = 0;
  const empty = el('div', 'empty');
  empty.id = 'timeline-empty';
  const jump = iconButton('jump-to-latest', 'arrow-down', strings.jumpToLatest, true);
  jump.hidden = true;
  timelineWrap.append(timeline, empty, jump);
  body.append(outline, timelineWrap);

  const summary = el('section', 'summary');
  summary.id = 'summary';
  summary.hidden = true;
  const summaryTitle = el('h2', 'section-title');
  const grid = el('div', 'summary-grid');
  const summaryStatusLabel = el('span', 'fact-label');
  const summaryStatus = el('span', 'fact-value');
  summaryStatus.id = 'summary-status';
  const summaryDurationLabel = el('span', 'fact-label');
  const summaryDuration = el('span', 'fact-value');
  summaryDuration.id = 'summary-duration';
  const summaryStepsLabel = el('span', 'fact-label');
  const summarySteps = el('span', 'fact-value');
  summarySteps.id = 'summary-steps';
  grid.append(summaryStatusLabel, summaryStatus, summaryDurationLabel, summaryDuration, summaryStepsLabel, summarySteps);
  const artifactsTitle = el('h3', 'section-title');
  const artifactsMessage = el('div', 'artifacts-message');
  artifactsMessage.id = 'artifacts-message';
  const artifactsList = el('ul', 'artifacts');
  artifactsList.id = 'artifacts';
  const artifactsRetry = iconButton('artifacts-retry', 'refresh', strings.retry, true);
  artifactsRetry.hidden = true;
  summary.append(summaryTitle, grid, artifactsTitle, artifactsMessage, artifactsRetry, artifactsList);

  const raw = el('div', 'raw');
  raw.id = 'raw-detail';
  // It sits inside the timeline's role=list, whose children must be list items (axe: aria-required-children).
  raw.setAttribute('role', 'listitem');
  const rawBar = el('div', 'raw-bar');
  const rawTitle = el('span', 'raw-title');
  const rawCopy = iconButton('copy-json', 'copy', strings.copyJson, true);
  const rawOpen = iconButton('open-json', 'go-to-file', strings.openEvent, true);
  rawBar.append(codicon('json'), rawTitle, rawCopy, rawOpen);
  const rawJson = el('pre', 'raw-json');
  raw.append(rawBar, rawJson);

  root.replaceChildren(header, toolbar, body, summary);
  const layout: Layout = {
    root, statusIcon: statusIconEl, runId, copyRunId, status, objective, connection, connectionIcon,
    connectionText: connectionTextEl, retry, signIn, elapsedLabel, elapsed, sequenceLabel, lastSequence, eventCount,
    plan, progressFill, progressBar, progressText, kindFilter, toolFilter, stepFilter, statusFilter, search, findPrev, findNext,
    findStatus, gotoInput, exportMarkdown, exportJsonl, openTranscript, outlineToggle, outline, outlineTitle, outlineList, timeline, empty, jump, summary, summaryTitle,
    summaryStatusLabel, summaryStatus, summaryDurationLabel, summaryDuration, summaryStepsLabel, summarySteps,
    artifactsTitle, artifactsMessage, artifactsList, artifactsRetry, raw, rawTitle, rawCopy, rawOpen, rawJson, kindsKey: '',
    toolsKey: '', stepsKey: '',
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
  const statusChoices: [string, string][] = [['', strings.allStatuses], ['problems', strings.statusProblems], ['approvals', strings.statusApprovals]];
  const selectedStatus = layout.statusFilter.value;
  layout.statusFilter.replaceChildren(...statusChoices.map(([value, text]) => {
    const option = el('option', undefined, text);
    option.value = value;
    return option;
  }));
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

export function currentStatus(state: TimelineState): string {
  return state.model.terminalEvent?.status ?? state.info.status ?? (state.model.totalEvents > 0 ? 'running' : '');
}

export function updateHeader(layout: Layout, state: TimelineState, now: number, reconnectSecondsLeft: number | undefined): void {
  const s = state.strings;
  setText(layout.runId, state.runId);
  const status = currentStatus(state);
  const { icon, tone } = statusIcon(status);
  setIcon(layout.statusIcon, icon, tone);
  setText(layout.status, status);
  layout.status.dataset.status = status;
  setText(layout.objective, state.info.objective ?? '');
  layout.objective.hidden = !state.info.objective;

  const connection = state.connection;
  if (layout.connection.dataset.state !== connection.state) layout.connection.dataset.state = connection.state;
  const connectionIcons: Record<typeof connection.state, [string, string]> = {
    connecting: ['loading', 'spin'],
    live: ['radio-tower', 'ok'],
    reconnecting: ['debug-disconnect', 'warn'],
    ended: ['debug-stop', 'muted'],
    failed: ['error', 'error'],
  };
  const [cIcon, cTone] = connectionIcons[connection.state];
  setIcon(layout.connectionIcon, cIcon, cTone);
  setText(layout.connectionText, connectionText(connection, s, reconnectSecondsLeft));
  layout.retry.hidden = connection.state !== 'failed' || connection.signInNeeded;
  layout.signIn.hidden = connection.state !== 'failed' || !connection.signInNeeded;

  const elapsed = elapsedMs(state, now);
  setText(layout.elapsed, elapsed === undefined ? '–' : formatDuration(elapsed));
  const last = state.model.lastSequence;
  setText(layout.lastSequence, String(last));
  layout.lastSequence.dataset.value = String(last);
  setText(layout.eventCount, fill(s.events, state.model.totalEvents));
  layout.eventCount.dataset.count = String(state.model.totalEvents);

  const plan = state.model.plan;
  setText(layout.plan, plan ? fill(s.planSummary, plan.steps, plan.strategy) : s.noPlan);
  const done = state.model.completedStepCount;
  const planned = plan?.steps ?? 0;
  const ratio = planned > 0 ? Math.min(1, done / planned) : 0;
  const width = `${(ratio * 100).toFixed(1)}%`;
  if (layout.progressFill.style.width !== width) layout.progressFill.style.width = width;
  layout.progressBar.setAttribute('aria-valuemax', String(planned));
  layout.progressBar.setAttribute('aria-valuenow', String(done));
  setText(layout.progressText, planned > 0 ? fill(s.progress, done, planned) : fill(s.progressNoPlan, done));

  const kinds = kindsSeen(state);
  const kindsKey = kinds.slice().sort().join('\n');
  if (kindsKey !== layout.kindsKey) {
    layout.kindsKey = kindsKey;
    const selected = state.filter.kind;
    const all = el('option', undefined, s.allKinds);
    all.value = '';
    const options = [all];
    for (const kind of kinds) {
      const option = el('option', undefined, kind === OTHER_KINDS ? s.otherKinds : kind);
      option.value = kind;
      options.push(option);
    }
    layout.kindFilter.replaceChildren(...options);
    layout.kindFilter.value = selected;
  }
  updateToolAndStepChoices(layout, state);
}

/** Steps offered by the step filter at most (the newest; the selected one always). */
const MAX_STEP_CHOICES = 300;

function updateToolAndStepChoices(layout: Layout, state: TimelineState): void {
  const s = state.strings;
  const tools = [...state.tools].sort();
  if (state.filter.tool && !state.tools.has(state.filter.tool)) tools.unshift(state.filter.tool);
  const toolsKey = `${tools.join('\n')}\n${state.filter.tool}`;
  if (toolsKey !== layout.toolsKey) {
    layout.toolsKey = toolsKey;
    layout.toolFilter.replaceChildren(option('', s.allTools), ...tools.map((tool) => option(tool, tool)));
    layout.toolFilter.value = state.filter.tool;
  }
  const model = state.model;
  // Steps start and complete by events: their counts change when the choices may.
  const stepsKey = `${model.kindCounts().get('step.started') ?? 0}/${model.completedStepCount}/${state.filter.stepId}`;
  if (stepsKey !== layout.stepsKey) {
    layout.stepsKey = stepsKey;
    const steps = [...model.stepSummaries()].slice(-MAX_STEP_CHOICES);
    const choices = steps.map((step) => option(step.stepId, step.title ? `${step.title} (${step.stepId})` : step.stepId));
    if (state.filter.stepId && !steps.some((step) => step.stepId === state.filter.stepId)) choices.unshift(option(state.filter.stepId, state.filter.stepId));
    layout.stepFilter.replaceChildren(option('', s.allSteps), ...choices);
    layout.stepFilter.value = state.filter.stepId;
  }
  if (layout.statusFilter.value !== state.filter.status) layout.statusFilter.value = state.filter.status;
}

function option(value: string, text: string): HTMLOptionElement {
  const node = el('option', undefined, text);
  node.value = value;
  return node;
}

export function updateEmpty(layout: Layout, state: TimelineState): void {
  // An empty window with earlier events to load is not "no matches": its "earlier" row shows.
  const message = state.rows.length > 0 || state.window.hasBefore ? '' : state.model.totalEvents > 0 ? state.strings.noMatches : state.strings.waiting;
  setText(layout.empty, message);
  layout.empty.hidden = message === '';
}

export function updateSummary(layout: Layout, state: TimelineState): void {
  const ended = state.model.terminalEvent !== undefined || state.connection.state === 'ended';
  layout.summary.hidden = !ended;
  if (!ended) return;
  const s = state.strings;
  const status = currentStatus(state);
  setText(layout.summaryStatus, status);
  layout.summaryStatus.dataset.status = status;
  const total = totalDurationMs(state);
  setText(layout.summaryDuration, total === undefined ? '–' : formatDuration(total));
  const planned = state.model.plan?.steps;
  const done = state.model.completedStepCount;
  setText(layout.summarySteps, planned !== undefined ? fill(s.stepsOf, done, planned) : String(done));
}

export function updateArtifacts(layout: Layout, state: TimelineState): void {
  const s = state.strings;
  const artifacts = state.artifacts;
  layout.artifactsList.replaceChildren();
  layout.artifactsRetry.hidden = artifacts.state !== 'failed';
  switch (artifacts.state) {
    case 'none':
      setText(layout.artifactsMessage, '');
      return;
    case 'loading':
      setText(layout.artifactsMessage, s.artifactsLoading);
      return;
    case 'failed':
      setText(layout.artifactsMessage, fill(s.artifactsFailed, artifacts.message));
      return;
    case 'loaded':
      break;
  }
  const shown = artifacts.artifacts.slice(0, MAX_ARTIFACT_ROWS);
  let message = artifacts.artifacts.length === 0 ? s.artifactsNone : '';
  if (artifacts.truncated || artifacts.artifacts.length > shown.length) message = fill(s.artifactsTruncated, shown.length);
  setText(layout.artifactsMessage, message);
  for (const artifact of shown) {
    const item = el('li', 'artifact');
    item.dataset.artifactId = artifact.id;
    const name = el('span', 'artifact-name', artifact.name);
    name.title = artifact.id;
    const details = [artifact.contentType ?? '', formatBytes(artifact.bytes) ?? ''].filter(Boolean).join(' · ');
    const open = el('button', 'text-button artifact-open');
    open.type = 'button';
    open.dataset.action = 'openArtifact';
    open.append(codicon('go-to-file'), el('span', 'button-label', s.open));
    const save = el('button', 'text-button artifact-save');
    save.type = 'button';
    save.dataset.action = 'saveArtifact';
    save.append(codicon('save'), el('span', 'button-label', s.save));
    item.append(codicon('file'), name, el('span', 'artifact-details muted', details), open, save);
    layout.artifactsList.append(item);
  }
}
