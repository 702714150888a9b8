// Bounds what the run panel keeps and shows of one run event, however large the server made it:
// long strings are cut with a visible "… (truncated, N bytes)" mark, nesting and entry counts are
// capped, and each kept event carries its size so the model can keep a byte budget.
// Pure: no vscode, no Node, no DOM (the webview runs it too).
import type { WireEvent } from './wire';

export interface EventBudget {
  /** Bytes of display data kept per event (its data as JSON, roughly). */
  eventBytes: number;
  /** Longest string kept, in characters, mark included. */
  stringChars: number;
  /** Deepest nesting kept; a deeper object or array becomes a mark. */
  depth: number;
  /** Most entries kept per object or array, the mark of the rest included. */
  entries: number;
  /** Longest event name or object key kept, in characters. */
  nameChars: number;
}

export const DEFAULT_EVENT_BUDGET: EventBudget = {
  eventBytes: 16 * 1024,
  stringChars: 4096,
  depth: 8,
  entries: 100,
  nameChars: 200,
};

/** What a kept event costs beyond its data: the object, its name, the receivedAt stamp. */
const EVENT_OVERHEAD_BYTES = 64;

const MARK_PREFIX = '… (truncated, ';

/** The text that stands in for what was cut: data the webview shows as text, never markup. */
export function truncationMark(bytes: number): string {
  return `${MARK_PREFIX}${bytes} bytes)`;
}

/** The longest mark (a 16-digit byte count): what a cut string reserves for it. */
const MAX_MARK_CHARS = truncationMark(Number.MAX_SAFE_INTEGER).length;
const MAX_MARK_BYTES = MAX_MARK_CHARS + 2; // the ellipsis is 3 bytes

const CHUNK_CHARS = 64 * 1024;
let encoder: { encodeInto(source: string, destination: Uint8Array): { written: number } } | undefined;
let scratch: Uint8Array | undefined;

/** UTF-8 length of a string, as an encoder makes it (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  if (text.length > 1024) {
    return encodedLength(text);
  }
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      continue;
    }
    if (code < 0x800) {
      bytes += 1;
    } else if (
      code >= 0xd800 &&
      code <= 0xdbff &&
      i + 1 < text.length &&
      (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    ) {
      bytes += 2; // the pair is 4 bytes for 2 code units
      i++;
    } else {
      bytes += 2;
    }
  }
  return bytes;
}

/** Long strings: the native encoder, a chunk at a time into one scratch buffer (megabytes of text take milliseconds). */
function encodedLength(text: string): number {
  encoder ??= new TextEncoder();
  scratch ??= new Uint8Array(CHUNK_CHARS * 3);
  let bytes = 0;
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + CHUNK_CHARS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) {
      end--;
    } // keep a surrogate pair whole
    bytes += encoder.encodeInto(text.slice(start, end), scratch).written;
    start = end;
  }
  return bytes;
}

/**
 * The size of a value as JSON, in bytes (escapes not counted). Iterative: JSON.parse builds
 * arrays nested millions deep without complaint, and a recursive walk would overflow the stack.
 */
export function jsonBytes(value: unknown): number {
  let bytes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      bytes += utf8Length(v) + 2;
    } else if (typeof v === 'number' || typeof v === 'boolean') {
      bytes += String(v).length;
    } else if (v === null || v === undefined) {
      bytes += 4;
    } else if (Array.isArray(v)) {
      bytes += 2 + Math.max(0, v.length - 1);
      for (const item of v) {
        stack.push(item);
      }
    } else if (typeof v === 'object') {
      const keys = Object.keys(v);
      bytes += 2 + Math.max(0, keys.length - 1);
      for (const key of keys) {
        bytes += utf8Length(key) + 3;
        stack.push((v as Record<string, unknown>)[key]);
      }
    } else {
      bytes += 4;
    }
  }
  return bytes;
}

export interface BoundedEvent {
  /** The event as kept: its own object, sharing no string with what came in when anything was cut. */
  event: WireEvent;
  /** What the model counts it as. */
  bytes: number;
}

/**
 * The event within the budget. Bounding a bounded event changes nothing (the webview's model runs
 * the same code on what the host sends). `truncatedBytes` tells the size of the data as the
 * server sent it, when any of it was cut.
 */
export function boundEvent(event: WireEvent, budget: EventBudget = DEFAULT_EVENT_BUDGET): BoundedEvent {
  if (event.truncatedBytes !== undefined) {
    // Cut once already (by the host, for the webview): cutting again would only mark the marks.
    const size = jsonBytes(event.data);
    if (size <= budget.eventBytes * 2 && event.event.length <= budget.nameChars) {
      return { event, bytes: size + utf8Length(event.event) + EVENT_OVERHEAD_BYTES };
    }
  }
  const walker = new Walker(budget);
  const name = walker.name(event.event);
  const data = walker.object(event.data, 1, { sequence: event.data.sequence }) as WireEvent['data'];
  let bounded: WireEvent = { event: name, data, receivedAt: event.receivedAt };
  const truncatedBytes = walker.cut ? jsonBytes(event.data) + utf8Length(event.event) : event.truncatedBytes;
  if (walker.cut) {
    // A cut string is a slice that keeps the whole original alive in V8 (and the mark's
    // concatenation a rope over it): a round trip through JSON gives the event strings of its own.
    bounded = JSON.parse(JSON.stringify(bounded)) as WireEvent;
  }
  if (truncatedBytes !== undefined) {
    bounded.truncatedBytes = truncatedBytes;
  }
  if (bounded.receivedAt === undefined) {
    delete bounded.receivedAt;
  }
  return { event: bounded, bytes: walker.used + utf8Length(name) + EVENT_OVERHEAD_BYTES };
}

class Walker {
  used = 0;
  cut = false;

  constructor(private readonly budget: EventBudget) {}

  private get left(): number {
    return this.budget.eventBytes - this.used;
  }

  name(text: string): string {
    if (text.length <= this.budget.nameChars) {
      return text;
    }
    this.cut = true;
    return cutString(text, this.budget.nameChars - MAX_MARK_CHARS);
  }

  value(value: unknown, depth: number): unknown {
    if (typeof value === 'string') {
      return this.string(value);
    }
    if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
      this.used += value === null ? 4 : String(value).length;
      return value;
    }
    if (typeof value !== 'object') {
      return null;
    } // not JSON; nothing a server could send
    if (depth >= this.budget.depth) {
      return this.mark(value);
    }
    return Array.isArray(value)
      ? this.array(value, depth + 1)
      : this.object(value as Record<string, unknown>, depth + 1);
  }

  /** `given`: entries kept as they are, first (the event's sequence). */
  object(value: Record<string, unknown>, depth: number, given: Record<string, unknown> = {}): Record<string, unknown> {
    const out: Record<string, unknown> = { ...given };
    const keys = Object.keys(value).filter((k) => !Object.prototype.hasOwnProperty.call(given, k));
    this.used += 2;
    let kept = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      // The last entry's place is for the mark of the rest.
      const full = kept >= this.budget.entries - 1 && i < keys.length - 1;
      if (full || this.left <= MAX_MARK_BYTES + Math.min(key.length, this.budget.nameChars) * 3 + 8) {
        const rest: Record<string, unknown> = {};
        for (const k of keys.slice(i)) {
          rest[k] = value[k];
        }
        define(out, uniqueKey(out, '…'), this.mark(rest));
        break;
      }
      const shortKey = uniqueKey(out, this.name(key));
      this.used += utf8Length(shortKey) + 4;
      define(out, shortKey, this.value(value[key], depth));
      kept++;
    }
    return out;
  }

  private array(value: unknown[], depth: number): unknown[] {
    const out: unknown[] = [];
    this.used += 2;
    for (let i = 0; i < value.length; i++) {
      const full = out.length >= this.budget.entries - 1 && i < value.length - 1;
      if (full || this.left <= MAX_MARK_BYTES + 8) {
        out.push(this.mark(value.slice(i)));
        break;
      }
      this.used += 1;
      out.push(this.value(value[i], depth));
    }
    return out;
  }

  private string(text: string): string {
    const room = Math.min(this.budget.stringChars, this.left - 2);
    const bytes = utf8Length(text);
    if (text.length <= this.budget.stringChars && bytes <= room) {
      this.used += bytes + 2;
      return text;
    }
    this.cut = true;
    const kept = cutString(text, Math.max(0, Math.floor((room - MAX_MARK_BYTES) / 3)), bytes);
    this.used += utf8Length(kept) + 2;
    return kept;
  }

  private mark(value: unknown): string {
    this.cut = true;
    const mark = truncationMark(jsonBytes(value));
    this.used += utf8Length(mark) + 2;
    return mark;
  }
}

/** A text of at most `chars` characters: cut, with the mark, when longer. */
export function boundText(text: string, chars: number): string {
  return text.length <= chars ? text : cutString(text, chars - MAX_MARK_CHARS);
}

/** The first `chars` code units (not splitting a surrogate pair) and the mark of the whole. */
function cutString(text: string, chars: number, bytes = utf8Length(text)): string {
  let end = Math.max(0, chars);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) {
    end--;
  }
  return text.slice(0, end) + truncationMark(bytes);
}

function uniqueKey(target: Record<string, unknown>, key: string): string {
  let candidate = key;
  for (let n = 2; Object.prototype.hasOwnProperty.call(target, candidate); n++) {
    candidate = `${key} (${n})`;
  }
  return candidate;
}

/** As an own property even for "__proto__", which plain assignment would take as the prototype. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
