// Synthetic run logs for the runLog tests: predictable events (steps of tool calls and
// observations) and a temporary folder that each test removes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { WireEvent } from '../../../src/runEvents/wire';

/** Event `sequence` of a synthetic run: every 10th starts a step, the rest alternate tool calls and observations. */
export function syntheticEvent(sequence: number): WireEvent {
  const event = baseEvent(sequence);
  // Every 1000th event carries the text the find tests look for.
  if (sequence % 1000 === 0) {
    event.data.note = `needle found at ${sequence}`;
  }
  return event;
}

function baseEvent(sequence: number): WireEvent {
  const step = `step_${Math.floor((sequence - 1) / 10)}`;
  const k = (sequence - 1) % 10;
  if (k === 0) {
    return { event: 'step.started', data: { sequence, step_id: step, title: `Step ${step}` } };
  }
  if (k % 2 === 1) {
    return {
      event: 'tool.called',
      data: {
        sequence,
        step_id: step,
        tool: k === 1 ? 'shell' : 'read_file',
        arguments: { path: `src/f${sequence}.ts` },
      },
    };
  }
  return {
    event: 'observation.recorded',
    data: { sequence, step_id: step, summary: `ok ${sequence}`, status: sequence % 97 === 0 ? 'failed' : 'ok' },
  };
}

export function syntheticEvents(from: number, to: number): WireEvent[] {
  const out: WireEvent[] = [];
  for (let s = from; s <= to; s++) {
    out.push(syntheticEvent(s));
  }
  return out;
}

export function tempFolder(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'runlog-test-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
