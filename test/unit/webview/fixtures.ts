// Recorded-style run event streams for the run panel's tests and benchmark.
import type { RunSnapshot, WireEvent } from '../../../src/runEvents/wire';

export function ev(event: string, sequence: number, fields: Record<string, unknown> = {}): WireEvent {
  return { event, data: { sequence, ...fields } };
}

/**
 * A run as the reference agent writes it: a plan, then per step started, tool calls and
 * observations, completed; optionally unknown kinds mixed in, and a terminal event.
 */
export function recordedRun(opts: {
  steps: number;
  toolsPerStep?: number;
  unknownEvery?: number;
  terminal?: string | null;
}): WireEvent[] {
  const tools = opts.toolsPerStep ?? 2;
  const events: WireEvent[] = [];
  let seq = 0;
  events.push(ev('plan.created', ++seq, { steps: opts.steps, strategy: 'sequential' }));
  for (let s = 1; s <= opts.steps; s++) {
    const stepId = `step_${s}`;
    events.push(ev('step.started', ++seq, { step_id: stepId, title: `Step ${s}: read the inputs` }));
    for (let t = 0; t < tools; t++) {
      events.push(ev('tool.called', ++seq, { step_id: stepId, tool: t % 2 === 0 ? 'search' : 'read_file' }));
      events.push(
        ev('observation.recorded', ++seq, {
          step_id: stepId,
          summary: `Found ${t + s} matching passages in the document`,
        }),
      );
      if (opts.unknownEvery && seq % opts.unknownEvery === 0) {
        events.push(ev('token.usage', ++seq, { step_id: stepId, tokens: seq }));
      }
    }
    events.push(ev('step.completed', ++seq, { step_id: stepId, duration_ms: 1200 + s }));
  }
  if (opts.terminal !== null) {
    events.push(ev(`run.${opts.terminal ?? 'completed'}`, ++seq, { status: opts.terminal ?? 'completed' }));
  }
  return events;
}

/** About `count` events (the terminal one last when `terminal`). */
export function runOfSize(count: number, terminal = true): WireEvent[] {
  const perStep = 2 + 2 * 4; // started, 4 tools + 4 observations, completed
  const steps = Math.max(1, Math.floor((count - 2) / perStep));
  return recordedRun({ steps, toolsPerStep: 4, terminal: terminal ? 'completed' : null });
}

export function emptySnapshot(runId: string): RunSnapshot {
  return {
    runId,
    lastSequence: 0,
    eventCount: 0,
    steps: [],
    stepsOmitted: 0,
    completedSteps: 0,
    recent: [],
    eventsOmitted: 0,
    kinds: {},
  };
}
