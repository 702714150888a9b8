// The whole run to a file: a Markdown transcript (a header, then per step its title and its
// events as lines: tool calls, observations, the rest) or JSON lines (each event as kept, one per
// line). Streamed chunk by chunk with the write stream's backpressure into a temporary file that
// is renamed into place at the end, so any size works and a cancel or failure leaves nothing.
// Plain Node: no vscode.
import { once } from 'node:events';
import { createWriteStream, promises as fsp, type WriteStream } from 'node:fs';
import { fill } from '../common/format';
import { markdownText } from '../common/markdownLiteral';
import type { WireEvent } from '../runEvents/wire';
import type { RunLogCache } from './logCache';
import { chunks, countLines } from './logScan';

export type ExportFormat = 'markdown' | 'jsonl';

/** The transcript's own words (the VS Code layer passes them translated). `{0}`, `{1}`: values. */
export const TRANSCRIPT_WORDS = {
  title: 'Run {0}',
  objective: 'Objective',
  status: 'Status',
  events: 'Events',
  step: 'Step {0}: {1}',
  stepCompleted: 'Step completed',
  toolCall: 'Tool call',
  observation: 'Observation',
  plan: 'Plan: {0} steps',
  runEnded: 'Run ended: {0}',
  truncated: 'truncated: {0} bytes as sent',
  logCapped: 'The log stops after event #{0}: it reached its size limit, later events are not in this file.',
};
export type TranscriptWords = typeof TRANSCRIPT_WORDS;

export interface TranscriptHeader {
  runId: string;
  objective?: string;
  status?: string;
}

export interface ExportOptions {
  signal?: AbortSignal;
  /** Events written so far, of the total. */
  onProgress?(written: number, total: number): void;
  words?: TranscriptWords;
}

/** Writes the run's log to `target`; resolves with the number of events written. */
export async function exportLog(
  cache: RunLogCache,
  format: ExportFormat,
  target: string,
  header: TranscriptHeader,
  options: ExportOptions = {},
): Promise<number> {
  await cache.flushed();
  const total = cache.length;
  const temp = `${target}.${process.pid}.${Date.now()}.part`;
  const out = createWriteStream(temp, { encoding: 'utf8' });
  const failed = once(out, 'error').then(([err]) => Promise.reject(err as Error));
  failed.catch(() => undefined);
  const write = async (text: string) => {
    if (!out.write(text)) {
      await Promise.race([once(out, 'drain'), failed]);
    }
  };
  let written = 0;
  try {
    const transcript = format === 'markdown' ? new Transcript(options.words ?? TRANSCRIPT_WORDS) : undefined;
    if (transcript) {
      await write(transcript.header(header, total, cache.cappedAfter));
    }
    for await (const chunk of chunks(cache, 0, total, false, { signal: options.signal })) {
      if (transcript) {
        await write(transcript.lines(chunk.text));
      } else {
        await write(chunk.text);
      }
      written += countLines(chunk.text);
      options.onProgress?.(written, total);
    }
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
    await fsp.rename(temp, target);
    return written;
  } catch (err) {
    await discard(out, temp);
    throw err;
  }
}

async function discard(out: WriteStream, temp: string): Promise<void> {
  out.destroy();
  await once(out, 'close').catch(() => undefined);
  await fsp.rm(temp, { force: true }).catch(() => undefined);
}

/** The Markdown of events, chunk by chunk; remembers only the step count. */
export class Transcript {
  private steps = 0;

  constructor(private readonly words: TranscriptWords) {}

  /** `cappedAfter`: the log stopped at its size limit after this sequence (RunLogCache.cappedAfter). */
  header(h: TranscriptHeader, events: number, cappedAfter?: number): string {
    const lines = [`# ${fill(this.words.title, markdownText(h.runId))}`, ''];
    if (h.objective) {
      lines.push(`- ${this.words.objective}: ${markdownText(h.objective)}`);
    }
    if (h.status) {
      lines.push(`- ${this.words.status}: ${markdownText(h.status)}`);
    }
    lines.push(`- ${this.words.events}: ${events}`);
    if (cappedAfter !== undefined) {
      lines.push(`- ${fill(this.words.logCapped, cappedAfter)}`);
    }
    lines.push('');
    return lines.join('\n') + '\n';
  }

  lines(text: string): string {
    let out = '';
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      out += this.event(JSON.parse(text.slice(start, nl)) as WireEvent);
      start = nl + 1;
    }
    return out;
  }

  event(e: WireEvent): string {
    const d = e.data;
    const seq = `\\#${markdownText(d.sequence)}`;
    const cut = e.truncatedBytes !== undefined ? ` (${fill(this.words.truncated, e.truncatedBytes)})` : '';
    const { sequence: _sequence, ...rest } = d;
    switch (e.event) {
      case 'step.started':
        this.steps++;
        return `\n## ${fill(this.words.step, this.steps, markdownText(d.title ?? d.step_id))}\n\n- ${seq} ${markdownText(e.event)}${cut}\n`;
      case 'step.completed':
        return `- ${seq} ${this.words.stepCompleted}${typeof d.duration_ms === 'number' ? ` (${d.duration_ms} ms)` : ''}${cut}\n`;
      case 'tool.called':
        return `- ${seq} ${this.words.toolCall} **${markdownText(d.tool)}**: ${markdownText(d.arguments ?? '')}${cut}\n`;
      case 'observation.recorded':
        return `- ${seq} ${this.words.observation}: ${markdownText(d.summary ?? rest)}${cut}\n`;
      case 'plan.created':
        return `- ${seq} ${fill(this.words.plan, markdownText(d.steps))}${d.strategy ? `: ${markdownText(d.strategy)}` : ''}${cut}\n`;
      case 'run.completed':
      case 'run.failed':
      case 'run.cancelled':
        return `\n## ${fill(this.words.runEnded, markdownText(d.status ?? e.event.slice(4)))}\n\n- ${seq} ${markdownText(e.event)}: ${markdownText(rest)}${cut}\n`;
      default:
        return `- ${seq} ${markdownText(e.event)}: ${markdownText(rest)}${cut}\n`;
    }
  }
}
