// Poisons JSON answers on their way out: display strings, names, huge fields, list junk, cursors, error messages.
import type { HostileOptions, ListSwitch } from './options';
import { hashOf, HOSTILE_SECRET, hostileErrorMessage, hostileName, hugeText, poisonText } from './values';

/** Keys whose string values a client shows to the user. Ids, statuses and types are left alone so the service still works. */
const TEXT_KEYS = new Set([
  'filename',
  'name',
  'objective',
  'title',
  'summary',
  'strategy',
  'tool',
  'message',
  'error',
  'content',
  'description',
  'output',
  'account',
  'scope',
  'resource',
]);
const MIB = 1024 * 1024;
const NAME_KEYS = new Set(['filename', 'name']);

/** Cursors of the cycling walk: the first page leads to 2, 2 leads back to 1, 1 to 2... */
export const CYCLE_CURSORS = ['hostile-cycle-1', 'hostile-cycle-2'] as const;

/** The fresh cursors' prefix: `hostile-fresh-1`, `hostile-fresh-2`... each page's is new. */
export const FRESH_CURSOR_PREFIX = 'hostile-fresh-';

/** Stable per record: the order in which hostile mode first met its id. */
export type Ordinal = (id: string) => number;

export function poisonRecordStrings(value: unknown, options: HostileOptions, ordinal: number): void {
  const seed = options.seed ?? 1;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (typeof node !== 'object' || node === null) {
      return;
    }
    const record = node as Record<string, unknown>;
    for (const [key, field] of Object.entries(record)) {
      if (typeof field !== 'string' || !TEXT_KEYS.has(key)) {
        visit(field);
        continue;
      }
      if (options.names && NAME_KEYS.has(key)) {
        record[key] = hostileName(seed + ordinal);
      } else if (options.strings) {
        record[key] = poisonText(field, seed + ordinal + hashOf(key));
      }
    }
  };
  visit(value);
}

/** Appends the huge filler to the record's first display string (if it is one of the chosen records). */
function makeHuge(record: Record<string, unknown>, options: HostileOptions, ordinal: number): void {
  const bytes = options.hugeFieldBytes ?? 0;
  if (bytes <= 0 || ordinal % Math.max(1, options.hugeEvery ?? 5) !== 0) {
    return;
  }
  const key = Object.keys(record).find((k) => TEXT_KEYS.has(k) && typeof record[k] === 'string');
  if (key) {
    record[key] = `${record[key] as string}${hugeText(bytes)}`;
  }
}

export function poisonRecord(record: Record<string, unknown>, options: HostileOptions, ordinalOf: Ordinal): void {
  const ordinal = typeof record.id === 'string' ? ordinalOf(record.id) : 0;
  poisonRecordStrings(record, options, ordinal);
  makeHuge(record, options, ordinal);
  if (options.budgets && (record.object === 'run' || record.object === 'task')) {
    // A budget no arithmetic may use, and a cost in a currency of its own.
    record.budget = { amount: ordinal % 2 === 0 ? 'lots' : '-0.50', currency: 'USD' };
    if (record.object === 'run') {
      record.usage = { cost: { amount: '0.10', currency: 'XTS' } };
    }
  }
  if (options.hugeOutputs && record.object === 'tool_invocation') {
    record.output = hugeText(MIB);
    record.output_truncated = true;
  }
  if (options.secretInErrors && record.object === 'webhook_delivery') {
    record.error = { message: `Delivery failed; signed with ${HOSTILE_SECRET}. ${COMMAND_LINK_NOTE}` };
  }
}

const COMMAND_LINK_NOTE =
  '[Retry](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%5Cn%22%7D) \u202Etxt.exe';

export function poisonError(body: Record<string, unknown>, options: HostileOptions = { errorMessages: true }): void {
  const error = body.error as Record<string, unknown> | undefined;
  if (typeof error !== 'object' || error === null || typeof error.message !== 'string') {
    return;
  }
  if (options.errorMessages) {
    error.message = hostileErrorMessage(error.message);
  }
  if (options.secretInErrors) {
    error.message = `${error.message as string} (webhook secret ${HOSTILE_SECRET})`;
  }
}

export function switchedOn(setting: ListSwitch | undefined, pathname: string): boolean {
  if (typeof setting === 'string') {
    return pathname.startsWith(setting);
  }
  return setting === true;
}

/** The kind of item a list path serves, for junk items that look the part. */
function kindOf(pathname: string): { object: string; prefix: string } {
  if (pathname.endsWith('/artifacts')) {
    return { object: 'artifact', prefix: 'art' };
  }
  if (pathname.startsWith('/v1/memory')) {
    return { object: 'memory', prefix: 'mem' };
  }
  if (pathname.startsWith('/v1/tools/invocations')) {
    return { object: 'tool_invocation', prefix: 'inv' };
  }
  if (pathname.startsWith('/v1/tools')) {
    return { object: 'tool', prefix: 'tool' };
  }
  if (pathname.startsWith('/v1/connectors')) {
    return { object: 'connector', prefix: 'conn' };
  }
  if (pathname.startsWith('/v1/webhooks')) {
    return { object: 'webhook', prefix: 'wh' };
  }
  if (pathname.startsWith('/v1/files')) {
    return { object: 'file', prefix: 'file' };
  }
  if (pathname.startsWith('/v1/tasks')) {
    return { object: 'task', prefix: 'task' };
  }
  return { object: 'run', prefix: 'run' };
}

function junkItems(pathname: string, firstReal: unknown): unknown[] {
  const { object, prefix } = kindOf(pathname);
  const junk: unknown[] = [
    42,
    `${prefix}_a_bare_string_item`,
    [],
    {
      id: 4242,
      object,
      status: 'completed',
      filename: 'numeric id',
      objective: 'numeric id',
      name: 'numeric id',
      bytes: 1,
    },
    { object, status: 'running', filename: 'no id', objective: 'no id', name: 'no id' },
    {
      id: `${prefix}_hostile_status_number`,
      object,
      status: 7,
      bytes: '1024',
      created_at: 'yesterday',
      filename: 'status 7',
      objective: 'status 7',
      name: 'status 7',
    },
    {
      id: `${prefix}_hostile_status_object`,
      object,
      status: { value: 'running' },
      bytes: -1,
      created_at: 0,
      filename: { text: 'an object' },
      objective: ['an', 'array'],
      name: null,
    },
  ];
  if (firstReal !== undefined) {
    junk.push(firstReal);
  }
  return junk;
}

export interface ListContext {
  pathname: string;
  /** Which cycle cursor this request came with, if any. */
  cyclePage?: number;
  /** The next fresh cursor (a new one at each call). */
  freshCursor?: () => string;
}

export function poisonList(
  body: Record<string, unknown>,
  options: HostileOptions,
  ordinalOf: Ordinal,
  list: ListContext,
): void {
  const data = body.data as unknown[];
  // Copied before the huge field goes in: the duplicate has the first item's id and strings but
  // not its huge field, so one huge record does not make the page twice as big.
  const duplicate = options.listJunk && data.length > 0 ? structuredClone(data[0]) : undefined;
  for (const item of data) {
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      poisonRecord(item as Record<string, unknown>, options, ordinalOf);
    }
  }
  const copies = Math.min(Math.max(0, Math.floor(options.hugeListItems ?? 0)), 1_000_000);
  const first = data.find((item) => typeof item === 'object' && item !== null && !Array.isArray(item));
  if (copies > 0 && first !== undefined) {
    const { id } = first as { id?: unknown };
    for (let k = 1; k <= copies; k++) {
      data.push({ ...(first as Record<string, unknown>), id: `${String(id)}_copy_${k}` });
    }
  }
  if (options.listJunk) {
    if (typeof duplicate === 'object' && duplicate !== null) {
      const id = (duplicate as Record<string, unknown>).id;
      poisonRecordStrings(duplicate, options, typeof id === 'string' ? ordinalOf(id) : 0);
    }
    data.unshift(null);
    data.push(...junkItems(list.pathname, duplicate));
  }
  if (switchedOn(options.freshCursor, list.pathname) && list.freshCursor) {
    body.has_more = true;
    body.next_cursor = list.freshCursor();
  } else if (switchedOn(options.cyclingCursor, list.pathname)) {
    body.has_more = true;
    body.next_cursor = list.cyclePage === 2 ? CYCLE_CURSORS[0] : CYCLE_CURSORS[1];
  } else if (switchedOn(options.hasMoreWithoutCursor, list.pathname) && body.has_more === false) {
    body.has_more = true;
    body.next_cursor = null;
  }
}
