// Hostile mode's switches: one per family of nasty values, `true` for all of them at sane sizes.

/** true = every path; a string = only lists whose path starts with it. */
export type ListSwitch = boolean | string;

export interface HostileOptions {
  /** Start from HOSTILE_ALL (what `hostile: true` means), then apply the other fields. */
  all?: boolean;
  /** Shifts which payload and name each record gets; the same seed and requests give the same answers. Default 1. */
  seed?: number;
  /** Display strings (filename, name, objective, title, summary, strategy, tool, message, error) get a command link, HTML and one rotating payload appended. */
  strings?: boolean;
  /** The first display string of every `hugeEvery`th record (in order of first appearance, first one included) gets this many bytes more. 0 = never. */
  hugeFieldBytes?: number;
  /** Default 5. */
  hugeEvery?: number;
  /** `filename` and `name` become hostile path names (HOSTILE_NAMES), also in Content-Disposition. */
  names?: boolean;
  /** Every JSON error's `message` starts with a command link. */
  errorMessages?: boolean;
  /** Every JSON error's message and every webhook delivery's error carry a webhook secret (HOSTILE_SECRET). */
  secretInErrors?: boolean;
  /** Every tool invocation record carries an output of exactly 1 MiB with output_truncated: true. */
  hugeOutputs?: boolean;
  /** Every matching /v1 request (after auth) answers `status` (default 400) with a command-link message. Never part of `true`. */
  errorEverything?: boolean | { status?: number; pathPrefix?: string; method?: string };
  /** List pages: `null` first; a number, a string, a numeric id, an item without id, number/object statuses, `bytes` as a string, and a duplicate of the first item after the real ones. */
  listJunk?: boolean;
  /** List pages: this many copies of the first real item more, under fresh ids (far more than asked). Never part of `true`. */
  hugeListItems?: number;
  /** Every page says has_more: true and its next_cursor leads to the first page again, whose cursor leads to the second... for ever. */
  cyclingCursor?: ListSwitch;
  /** Every page says has_more: true and a next_cursor never handed out before, whose page is the first page again (before cyclingCursor). */
  freshCursor?: ListSwitch;
  /** The last page says has_more: true with next_cursor: null (where cyclingCursor is not on). */
  hasMoreWithoutCursor?: ListSwitch;
  /** Event streams start with events whose names are markdown links, HTML, codicons, a bidi override, a zero-width joiner and prototype keys. */
  eventNames?: boolean;
  /** Event streams start with known kinds whose fields have the wrong types (numeric step_id, string duration_ms, 1e308 steps...). */
  eventFieldTypes?: boolean;
  /** Event streams start with this many events of distinct unknown kinds. */
  manyEventKinds?: number;
  /** Event streams start with an observation.recorded whose summary is this many bytes. */
  hugeEventBytes?: number;
  /** Event streams start with spend gone wrong (hostile/events.ts BUDGET_EVENTS): negative and non-numeric costs, a currency that changes, a burst of `budgetFlood` usage.updated, budget events naming another run; run records carry a non-numeric budget. */
  budgets?: boolean;
  /** With budgets: how many usage.updated follow in one burst (as fast as the socket takes them). Default 0. */
  budgetFlood?: number;
  /** Right before the terminal event: events with sequence 2^53-1 and 2^60 (the terminal keeps its own, lower, sequence). */
  bigSequences?: boolean;
  /** Every event stream ignores `after` (starts again at sequence 1) and is cut N events past the `after` it was asked for. */
  replayAfterDrop?: number;
  /** The Nth, 2Nth... POST answers 409, alternately `idempotency_key_in_use` and `idempotency_key_reused`, without doing anything. */
  conflictEvery?: number;
  /** The Nth, 2Nth... GET of one record or of file content answers 302 to http://127.0.0.2:PORT/... then 307 to https://evil.example/..., alternately. */
  redirectEvery?: number;
  /** File content without Content-Length (chunked). */
  chunkedDownloads?: boolean;
  /** File content goes on for this many bytes past the real end. */
  endlessDownloadBytes?: number;
  /** A project run's patch (an artifact with base_commit) is followed by parts with `..`, absolute and `.git/` paths, a path through `linked/`, names with a bidi override and a command link, and a binary part (hostile/projectPatches.ts). */
  projectPatches?: boolean;
  /** Event streams start with review_comment.addressed events: unknown and malformed comment ids, a huge note, markup and bidi in notes, then this many events naming comments. 0 = none. */
  reviewCommentEvents?: number;
  /** With projectPatches: the patch is padded (a created file of filler lines) to at least this many bytes. 0 = not padded. */
  hugeProjectPatchBytes?: number;
  /** A project run's patch also creates this many plain files, the 45th of them `.husky/pre-commit` (a hook a person must see before it is written; hostile/projectPatches.ts). 0 = none. */
  wideProjectPatchFiles?: number;
}

const MB = 1024 * 1024;

/** What `hostile: true` turns on. */
export const HOSTILE_ALL: Readonly<Required<Omit<HostileOptions, 'all' | 'errorEverything'>>> = {
  seed: 1,
  strings: true,
  hugeFieldBytes: 10 * MB,
  hugeEvery: 5,
  names: true,
  errorMessages: true,
  secretInErrors: true,
  hugeOutputs: true,
  listJunk: true,
  hugeListItems: 0,
  cyclingCursor: '/v1/files',
  freshCursor: false,
  hasMoreWithoutCursor: true,
  eventNames: true,
  eventFieldTypes: true,
  manyEventKinds: 2000,
  hugeEventBytes: 8 * MB,
  bigSequences: true,
  budgets: true,
  budgetFlood: 1000,
  replayAfterDrop: 1000,
  conflictEvery: 2,
  redirectEvery: 3,
  chunkedDownloads: true,
  endlessDownloadBytes: 64 * MB,
  projectPatches: true,
  hugeProjectPatchBytes: 50 * MB + 1,
  wideProjectPatchFiles: 50,
  reviewCommentEvents: 0,
};

/** The effective switches, or undefined when hostile mode is off. */
export function resolveHostile(value: HostileOptions | boolean | undefined | null): HostileOptions | undefined {
  if (value === undefined || value === null || value === false) {
    return undefined;
  }
  if (value === true) {
    return { ...HOSTILE_ALL };
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new Error('hostile must be true, false or an object of switches');
  }
  const { all, ...rest } = value;
  return all === true ? { ...HOSTILE_ALL, ...rest } : { ...rest };
}
