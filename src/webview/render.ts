// Updates the run panel's DOM (layout.ts) from the view model: header, plan and progress, the
// toolbar's filter choices, summary and artifacts (the timeline's rows are in renderRows.ts).
// Every server string goes in with textContent (through dom.ts), never as markup.
import { formatBytes } from '../common/format';
import { codicon, el, setAttr, setButtonLabel, setHidden, setIcon, setText, setTitle } from './dom';
import { connectionText, elapsedMs, fill, formatDuration, statusIcon, totalDurationMs } from './format';
import type { Layout } from './layout';
import { kindsSeen, OTHER_KINDS, type TimelineState } from './reducer';

/** Artifacts drawn at most (the rest are counted). */
const MAX_ARTIFACT_ROWS = 200;

export function currentStatus(state: TimelineState): string {
  return state.model.terminalEvent?.status ?? state.info.status ?? (state.model.totalEvents > 0 ? 'running' : '');
}

export function updateHeader(
  layout: Layout,
  state: TimelineState,
  now: number,
  reconnectSecondsLeft: number | undefined,
): void {
  const s = state.strings;
  setText(layout.runId, state.runId);
  const status = currentStatus(state);
  const { icon, tone } = statusIcon(status);
  setIcon(layout.statusIcon, icon, tone);
  setText(layout.status, status.replace(/_/g, ' '));
  layout.status.dataset.status = status;
  setText(layout.objective, state.info.objective ?? '');
  setHidden(layout.objective, !state.info.objective);

  const connection = state.connection;
  if (layout.connection.dataset.state !== connection.state) {
    layout.connection.dataset.state = connection.state;
  }
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
  setHidden(layout.retry, connection.state !== 'failed' || connection.signInNeeded);
  setHidden(layout.signIn, connection.state !== 'failed' || !connection.signInNeeded);

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
  if (layout.progressFill.style.width !== width) {
    layout.progressFill.style.width = width;
  }
  setAttr(layout.progressBar, 'aria-valuemax', String(planned));
  setAttr(layout.progressBar, 'aria-valuenow', String(done));
  setText(layout.progressText, planned > 0 ? fill(s.progress, done, planned) : fill(s.progressNoPlan, done));
  const capped = state.info.logCappedAfter;
  setText(layout.logCapped, capped === undefined ? '' : fill(s.logCapped, capped));
  setHidden(layout.logCapped, capped === undefined);

  const kinds = kindsSeen(state);
  const kindsKey = kinds.slice().sort().join('\n');
  if (kindsKey !== layout.kindsKey) {
    layout.kindsKey = kindsKey;
    syncOptions(layout.kindFilter, [
      ['', s.allKinds],
      ...kinds.map((kind): [string, string] => [kind, kind === OTHER_KINDS ? s.otherKinds : kind]),
    ]);
    layout.kindFilter.value = state.filter.kind;
  }
  updateToolAndStepChoices(layout, state);
}

/** Steps offered by the step filter at most (the newest; the selected one always). */
const MAX_STEP_CHOICES = 300;

function updateToolAndStepChoices(layout: Layout, state: TimelineState): void {
  const s = state.strings;
  const tools = [...state.tools].sort();
  if (state.filter.tool && !state.tools.has(state.filter.tool)) {
    tools.unshift(state.filter.tool);
  }
  const toolsKey = `${tools.join('\n')}\n${state.filter.tool}`;
  if (toolsKey !== layout.toolsKey) {
    layout.toolsKey = toolsKey;
    syncOptions(layout.toolFilter, [['', s.allTools], ...tools.map((tool): [string, string] => [tool, tool])]);
    layout.toolFilter.value = state.filter.tool;
  }
  const model = state.model;
  // Steps start and complete by events: their counts change when the choices may.
  const stepsKey = `${model.kindCounts().get('step.started') ?? 0}/${model.completedStepCount}/${state.filter.stepId}`;
  if (stepsKey !== layout.stepsKey) {
    layout.stepsKey = stepsKey;
    const steps = [...model.stepSummaries()].slice(-MAX_STEP_CHOICES);
    const choices = steps.map((step): [string, string] => [
      step.stepId,
      step.title ? `${step.title} (${step.stepId})` : step.stepId,
    ]);
    if (state.filter.stepId && !steps.some((step) => step.stepId === state.filter.stepId)) {
      choices.unshift([state.filter.stepId, state.filter.stepId]);
    }
    syncOptions(layout.stepFilter, [['', s.allSteps], ...choices]);
    layout.stepFilter.value = state.filter.stepId;
  }
  if (layout.statusFilter.value !== state.filter.status) {
    layout.statusFilter.value = state.filter.status;
  }
}

/**
 * Makes a select's options `wanted` ([value, text], in order) by touching only those that differ:
 * while a run streams, a step starts every few events, and rebuilding up to 300 options each
 * time cost a style pass over all of them every frame. Values are unique.
 */
export function syncOptions(select: HTMLSelectElement, wanted: readonly (readonly [string, string])[]): void {
  const values = new Set(wanted.map(([value]) => value));
  let i = 0;
  let node = select.firstElementChild as HTMLOptionElement | null;
  while (node !== null && i < wanted.length) {
    const next = node.nextElementSibling as HTMLOptionElement | null;
    const [value, text] = wanted[i];
    if (node.value === value) {
      setText(node, text);
      i++;
    } else if (!values.has(node.value)) {
      node.remove();
    } else {
      select.insertBefore(option(value, text), node);
      i++;
      continue;
    }
    node = next;
  }
  while (node !== null) {
    const next = node.nextElementSibling as HTMLOptionElement | null;
    node.remove();
    node = next;
  }
  for (; i < wanted.length; i++) {
    select.append(option(wanted[i][0], wanted[i][1]));
  }
}

function option(value: string, text: string): HTMLOptionElement {
  const node = el('option', undefined, text);
  node.value = value;
  return node;
}

export function updateEmpty(layout: Layout, state: TimelineState): void {
  // An empty window with earlier events to load is not "no matches": its "earlier" row shows.
  const message =
    state.rows.length > 0 || state.window.hasBefore
      ? ''
      : state.model.totalEvents > 0
        ? state.strings.noMatches
        : state.strings.waiting;
  setText(layout.empty, message);
  setHidden(layout.empty, message === '');
}

export function updateSummary(layout: Layout, state: TimelineState): void {
  const ended = state.model.terminalEvent !== undefined || state.connection.state === 'ended';
  setHidden(layout.summary, !ended);
  if (!ended) {
    return;
  }
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
  setHidden(layout.artifactsRetry, artifacts.state !== 'failed');
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
  if (artifacts.truncated || artifacts.artifacts.length > shown.length) {
    message = fill(s.artifactsTruncated, shown.length);
  }
  setText(layout.artifactsMessage, message);
  for (const artifact of shown) {
    const item = el('li', 'artifact');
    item.dataset.artifactId = artifact.id;
    const name = el('span', 'artifact-name', artifact.name);
    setTitle(name, artifact.id);
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

/** "Jump to newest" shows while away from the live end, with how many events came meanwhile. */
export function updateJumpButton(layout: Layout, state: TimelineState, away: boolean, totalWhenLeft: number): void {
  setHidden(layout.jump, !away);
  if (!away) {
    return;
  }
  const fresh = state.window.hasAfter
    ? Math.max(state.window.newAway, state.model.totalEvents - totalWhenLeft)
    : state.model.totalEvents - totalWhenLeft;
  setButtonLabel(layout.jump, fresh > 0 ? fill(state.strings.jumpToNewest, fresh) : state.strings.jumpToLatest);
}

/** The sequence of the focused row, if a row has the focus (kept across a page's redraw). */
export function focusedRowSequence(): number | undefined {
  const active = document.activeElement;
  return active instanceof HTMLElement && active.classList.contains('row') && active.dataset.sequence
    ? Number(active.dataset.sequence)
    : undefined;
}
