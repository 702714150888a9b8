// Reads the state a run panel's webview saved (vscode.setState) when VS Code hands it back to
// the serializer after a window reload. Anything malformed is dropped rather than trusted.
import { isRunId } from '../runEvents/ids';
import type { RunSnapshot, StepSummary, WireEvent } from '../runEvents/wire';
import { type PersistedState } from './protocol';

const MAX_SAVED_KINDS = 200;

export function parsePersistedState(raw: unknown): PersistedState | undefined {
  if (!isObject(raw) || !isRunId(raw.runId)) {
    return undefined;
  }
  const lastSequence = isSequence(raw.lastSequence) ? raw.lastSequence : 0;
  const objective = typeof raw.objective === 'string' ? raw.objective : undefined;
  const snapshot = parseSnapshot(raw.snapshot, raw.runId);
  // A snapshot that disagrees with the saved position is ignored: resuming must not skip events.
  if (snapshot && snapshot.lastSequence === lastSequence) {
    return { runId: raw.runId, lastSequence, objective, snapshot };
  }
  return { runId: raw.runId, lastSequence, objective };
}

function parseSnapshot(raw: unknown, runId: string): RunSnapshot | undefined {
  if (!isObject(raw) || raw.runId !== runId || !isSequence(raw.lastSequence)) {
    return undefined;
  }
  if (!Array.isArray(raw.steps) || !Array.isArray(raw.recent)) {
    return undefined;
  }
  const recent: WireEvent[] = [];
  let previous = 0;
  for (const item of raw.recent) {
    if (!isObject(item) || typeof item.event !== 'string' || !isObject(item.data)) {
      return undefined;
    }
    const sequence = item.data.sequence;
    if (!isSequence(sequence) || sequence <= previous || sequence > raw.lastSequence) {
      return undefined;
    }
    previous = sequence;
    recent.push({
      event: item.event,
      data: { ...item.data, sequence },
      receivedAt: typeof item.receivedAt === 'number' ? item.receivedAt : undefined,
      ...(isSequence(item.truncatedBytes) ? { truncatedBytes: item.truncatedBytes } : {}),
    });
  }
  const steps: StepSummary[] = [];
  for (const item of raw.steps) {
    if (!isObject(item) || typeof item.stepId !== 'string') {
      return undefined;
    }
    steps.push({
      stepId: item.stepId,
      title: typeof item.title === 'string' ? item.title : '',
      startSequence: isSequence(item.startSequence) ? item.startSequence : 0,
      state: item.state === 'completed' ? 'completed' : 'running',
      durationMs: typeof item.durationMs === 'number' ? item.durationMs : undefined,
      completedSequence: isSequence(item.completedSequence) ? item.completedSequence : undefined,
      startedAt: typeof item.startedAt === 'number' ? item.startedAt : undefined,
      toolCalls: count(item.toolCalls),
      observations: count(item.observations),
      others: count(item.others),
    });
  }
  const plan = isObject(raw.plan)
    ? {
        steps: count(raw.plan.steps),
        strategy: typeof raw.plan.strategy === 'string' ? raw.plan.strategy : '',
        sequence: count(raw.plan.sequence),
      }
    : undefined;
  const terminal =
    isObject(raw.terminal) && typeof raw.terminal.event === 'string' && typeof raw.terminal.status === 'string'
      ? {
          event: raw.terminal.event,
          status: raw.terminal.status,
          sequence: count(raw.terminal.sequence),
          receivedAt: typeof raw.terminal.receivedAt === 'number' ? raw.terminal.receivedAt : undefined,
        }
      : undefined;
  // The model caps kinds again; this only keeps a hostile saved state from costing a big object.
  const kinds: Record<string, number> = {};
  let otherKinds = count(raw.otherKinds);
  let kept = 0;
  if (isObject(raw.kinds)) {
    for (const [k, v] of Object.entries(raw.kinds)) {
      if (kept++ < MAX_SAVED_KINDS) {
        kinds[k] = count(v);
      } else {
        otherKinds += count(v);
      }
    }
  }
  return {
    runId,
    lastSequence: raw.lastSequence,
    eventCount: Math.max(count(raw.eventCount), recent.length),
    plan,
    steps,
    stepsOmitted: count(raw.stepsOmitted),
    completedSteps: count(raw.completedSteps),
    recent,
    eventsOmitted: count(raw.eventsOmitted),
    terminal,
    kinds,
    otherKinds: otherKinds > 0 ? otherKinds : undefined,
    firstReceivedAt: typeof raw.firstReceivedAt === 'number' ? raw.firstReceivedAt : undefined,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSequence(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
