// Steering a run and spend (docs/PROTOCOL.md, Steering; Usage and spend):
// cancel, resume, fork, approvals and usage. The ApiClient methods delegate here so every call
// takes the one request path (ids through pathSegment, one Idempotency-Key per call reused on
// each retry, 404/405 -> 'not_supported' since the endpoints are assumed). Plain Node.
import type { Logger } from '../common/logger';
import { toWire, validMoney } from '../common/money';
import { ApiError } from './errors';
import { clampLimit } from './pagination';
import { parsePage, parseRecord } from './parse';
import { pathSegment } from './pathSegment';
import { type Query, readJson, type RequestSpec } from './requestPath';
import type {
  ApprovalDecision,
  ApprovalRecord,
  ApprovalStatus,
  Attachment,
  Money,
  Page,
  PageParams,
  RunRecord,
  TaskContext,
  UsageRecord,
} from './types';

/** What these calls need of the client: its request path and its (escaping) logger. */
export interface SteeringCaller {
  call<T>(spec: RequestSpec<T>): Promise<T>;
  readonly logger: Logger;
}

export interface SteeringOptions {
  signal?: AbortSignal;
  /** Sent on every attempt; a fresh UUID when absent. Pass the same key to repeat a call safely. */
  idempotencyKey?: string;
}

export interface ApprovalListParams extends PageParams {
  status?: ApprovalStatus;
  run_id?: string;
}

/** The 409 codes of steering, on ApiError.code. */
export const SteeringConflict = {
  runNotActive: 'run_not_active',
  runNotResumable: 'run_not_resumable',
  alreadyDecided: 'approval_already_decided',
  expired: 'approval_expired',
  budgetTooLow: 'budget_too_low',
} as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') {
    return value;
  }
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

const APPROVAL_TEXT = ['tool', 'step_id', 'reason', 'expires_at', 'decided_at', 'note'] as const;

/** An approval with its displayed fields made safe: text is a string or absent, arguments an object or absent. */
export function approvalFrom(value: Record<string, unknown> & { id: string }): ApprovalRecord {
  const out: Record<string, unknown> = { ...value };
  for (const field of APPROVAL_TEXT) {
    if (field in out) {
      out[field] = text(out[field]);
    }
  }
  if ('arguments' in out && !isObject(out.arguments)) {
    out.arguments = undefined;
  }
  return out as ApprovalRecord;
}

export function parseApproval(value: unknown): ApprovalRecord {
  return approvalFrom(parseRecord<ApprovalRecord>(value, 'approval'));
}

/** The current record a 409 decision answer carried, if it is a usable one. */
export function conflictApproval(err: unknown): ApprovalRecord | undefined {
  if (!(err instanceof ApiError) || err.status !== 409 || !err.approval) {
    return undefined;
  }
  const record = err.approval;
  return typeof record.id === 'string' && record.id !== ''
    ? approvalFrom(record as Record<string, unknown> & { id: string })
    : undefined;
}

function money(value: unknown): Money | undefined {
  if (!isObject(value)) {
    return undefined;
  }
  const amount = text(value.amount);
  const currency = text(value.currency);
  return amount !== undefined && currency !== undefined ? { amount, currency } : undefined;
}

/** Missing or odd fields are absent, never an error (docs/PROTOCOL.md, Usage and spend). */
export function parseUsage(value: unknown): UsageRecord {
  if (!isObject(value)) {
    throw new ApiError({ kind: 'protocol', message: 'The usage answer is not an object.' });
  }
  return {
    ...value,
    object: text(value.object),
    period_start: text(value.period_start),
    period_end: text(value.period_end),
    spend: money(value.spend),
    quota: value.quota === null ? null : money(value.quota),
  };
}

/**
 * A 404 on an assumed endpoint can mean "no such record" or "no such endpoint", and servers
 * (the reference runtime too) may say `not_found` for both. A second look tells which: a list or
 * the usage endpoint has no record to miss, an action on a run that exists cannot be missing
 * its run, and a missing approval is its record only where the approvals list answers.
 */
export async function orUnsupported<T>(
  request: Promise<T>,
  what: string,
  endpointMissing: () => Promise<boolean>,
): Promise<T> {
  try {
    return await request;
  } catch (err) {
    if (!(err instanceof ApiError) || err.kind !== 'not_found' || err.status !== 404) {
      throw err;
    }
    if (!(await endpointMissing().catch(() => false))) {
      throw err;
    }
    throw new ApiError({
      kind: 'not_supported',
      status: 404,
      code: err.code,
      requestId: err.requestId,
      message: `This server does not offer ${what} (it answered 404 Not Found).`,
    });
  }
}

const always = async (): Promise<boolean> => true;

function whenRunExists(caller: SteeringCaller, runId: string): () => Promise<boolean> {
  return async () => {
    await caller.call({ method: 'GET', path: `/runs/${pathSegment(runId)}`, consume: async (res) => readJson(res) });
    return true;
  };
}

/**
 * A 404 on one record of an assumed resource is "no such endpoint" only when the resource's list
 * is missing too: this looks at the list (`GET listPath?limit=1`) and says which.
 */
export function whenListMissing(caller: SteeringCaller, listPath: string): () => Promise<boolean> {
  return async () => {
    try {
      await assumedGet(caller, listPath, { limit: 1 }, undefined, (v) => v);
      return false;
    } catch (err) {
      return err instanceof ApiError && (err.status === 404 || err.kind === 'not_supported');
    }
  };
}

function post<T>(
  caller: SteeringCaller,
  path: string,
  json: unknown,
  opts: SteeringOptions,
  parse: (v: unknown) => T,
): Promise<T> {
  return assumedSend(caller, 'POST', path, json, opts, parse);
}

/** A request of an assumed endpoint (docs/PROTOCOL.md: steering, memory, tools...): JSON in, parsed JSON out. */
export function assumedSend<T>(
  caller: SteeringCaller,
  method: 'POST' | 'PATCH' | 'DELETE',
  path: string,
  json: unknown,
  opts: SteeringOptions,
  parse: (v: unknown) => T,
): Promise<T> {
  return caller.call({
    method,
    path,
    json,
    idempotencyKey: method === 'POST' ? opts.idempotencyKey : undefined,
    signal: opts.signal,
    assumed: true,
    consume: async (res) => parse(await readJson(res)),
  });
}

/** A GET of an assumed endpoint (docs/PROTOCOL.md). */
export function assumedGet<T>(
  caller: SteeringCaller,
  path: string,
  query: Query | undefined,
  signal: AbortSignal | undefined,
  parse: (v: unknown) => T,
): Promise<T> {
  return caller.call({
    method: 'GET',
    path,
    query,
    signal,
    assumed: true,
    consume: async (res) => parse(await readJson(res)),
  });
}

const get = assumedGet;

const runRecord = (v: unknown): RunRecord => parseRecord<RunRecord>(v, 'run');

function optionalInstructions(instructions: string | undefined): { instructions?: string } {
  if (instructions === undefined) {
    return {};
  }
  if (typeof instructions !== 'string') {
    throw new ApiError({ kind: 'validation', param: 'instructions', message: 'Instructions must be text.' });
  }
  return instructions.trim() === '' ? {} : { instructions };
}

/** One `review_comments` item of a fork or resume (docs/PROTOCOL.md, Review conversations). */
export interface ReviewCommentBody {
  id: string;
  path: string;
  start_line: number;
  end_line: number;
  side: 'agent' | 'base';
  quote: string;
  body: string;
}

/** The protocol's cap on comments per follow-up; the items' own caps are checked by src/review. */
export const MAX_REVIEW_COMMENTS = 100;

/** `{ review_comments }` when there are any; a list over the cap is refused before sending. */
function optionalReviewComments(comments: readonly ReviewCommentBody[] | undefined): {
  review_comments?: ReviewCommentBody[];
} {
  if (comments === undefined || comments.length === 0) {
    return {};
  }
  if (!Array.isArray(comments) || comments.length > MAX_REVIEW_COMMENTS) {
    throw new ApiError({
      kind: 'validation',
      param: 'review_comments',
      message: `A follow-up may carry at most ${MAX_REVIEW_COMMENTS} review comments.`,
    });
  }
  return { review_comments: [...comments] };
}

/**
 * `{budget}` for a request body when a budget is given: a positive decimal amount with its
 * currency (docs/PROTOCOL.md, Budgets), refused before anything is sent otherwise.
 */
export function budgetField(budget: unknown, param = 'budget'): { budget?: Money } {
  if (budget === undefined) {
    return {};
  }
  const money = validMoney(budget);
  if (!money || money.units === 0n) {
    throw new ApiError({
      kind: 'validation',
      param,
      message: 'A budget is an amount above zero with its currency, such as 5.00 USD.',
    });
  }
  return { budget: toWire(money) };
}

/** 200 the run (cancelled, or still stopping). 409 run_not_active once it ended. */
export async function cancelRun(caller: SteeringCaller, runId: string, opts: SteeringOptions = {}): Promise<RunRecord> {
  const path = `/runs/${pathSegment(runId)}/cancel`;
  return orUnsupported(post(caller, path, undefined, opts, runRecord), 'cancelling runs', whenRunExists(caller, runId));
}

/** 201 a new run going on after the last completed step. 409 run_not_resumable. */
export async function resumeRun(
  caller: SteeringCaller,
  runId: string,
  body: { instructions?: string; reviewComments?: readonly ReviewCommentBody[]; budget?: Money } = {},
  opts: SteeringOptions = {},
): Promise<RunRecord> {
  const path = `/runs/${pathSegment(runId)}/resume`;
  const json = {
    ...optionalInstructions(body.instructions),
    ...optionalReviewComments(body.reviewComments),
    ...budgetField(body.budget),
  };
  return orUnsupported(post(caller, path, json, opts, runRecord), 'resuming runs', whenRunExists(caller, runId));
}

/**
 * What a fork may give its new run to start from instead of the task's (docs/PROTOCOL.md, Fork:
 * catching up with the workspace): a project's commit, and the attachments (the whole list).
 */
export interface ForkInputs {
  context?: TaskContext;
  attachments?: readonly Attachment[];
}

/** `{context?, attachments?}` as given; a commit that is not 40 hex is refused before sending. */
function forkInputsField(inputs: ForkInputs): { context?: TaskContext; attachments?: Attachment[] } {
  const commit = inputs.context?.commit;
  if (commit !== undefined && !/^[0-9a-f]{40}$/.test(commit)) {
    throw new ApiError({
      kind: 'validation',
      param: 'context.commit',
      message: 'The commit must be a full 40-character commit id.',
    });
  }
  return {
    ...(inputs.context !== undefined ? { context: { ...inputs.context } } : {}),
    ...(inputs.attachments !== undefined ? { attachments: inputs.attachments.map((a) => ({ ...a })) } : {}),
  };
}

/** 201 a new run whose log starts with events 1..after_sequence of this one. 400 past the end. */
export async function forkRun(
  caller: SteeringCaller,
  runId: string,
  body: {
    after_sequence: number;
    instructions?: string;
    reviewComments?: readonly ReviewCommentBody[];
    budget?: Money;
  } & ForkInputs,
  opts: SteeringOptions = {},
): Promise<RunRecord> {
  const after = body?.after_sequence;
  if (!Number.isSafeInteger(after) || after < 1) {
    throw new ApiError({
      kind: 'validation',
      param: 'after_sequence',
      message: 'A fork needs the sequence of an event of the run (a positive whole number).',
    });
  }
  const path = `/runs/${pathSegment(runId)}/fork`;
  const json = {
    after_sequence: after,
    ...optionalInstructions(body.instructions),
    ...optionalReviewComments(body.reviewComments),
    ...budgetField(body.budget),
    ...forkInputsField(body),
  };
  return orUnsupported(post(caller, path, json, opts, runRecord), 'forking runs', whenRunExists(caller, runId));
}

/**
 * 200 the run with its new budget; a run waiting at its cap goes on. 409 budget_too_low (not
 * above what it spent) or run_not_active (ended). One Idempotency-Key per decision, so a retry
 * never raises twice (docs/PROTOCOL.md, Budgets).
 */
export async function raiseBudget(
  caller: SteeringCaller,
  runId: string,
  budget: Money,
  idempotencyKey: string,
  signal?: AbortSignal,
): Promise<RunRecord> {
  const json = budgetField(budget, 'amount').budget;
  const path = `/runs/${pathSegment(runId)}/budget`;
  return orUnsupported(
    post(caller, path, json, { idempotencyKey, signal }, runRecord),
    'budgets',
    whenRunExists(caller, runId),
  );
}

export async function listApprovals(
  caller: SteeringCaller,
  params: ApprovalListParams = {},
  signal?: AbortSignal,
): Promise<Page<ApprovalRecord>> {
  const query: Query = {
    status: params.status,
    run_id: params.run_id === undefined ? undefined : pathSegment(params.run_id),
    limit: params.limit === undefined ? undefined : clampLimit(params.limit),
    after: params.after,
  };
  const request = get(caller, '/approvals', query, signal, (v) => {
    const page = parsePage<Record<string, unknown> & { id: string }>(v, 'approvals', caller.logger);
    return { ...page, data: page.data.map(approvalFrom) };
  });
  // A run_id filter may name a run the server does not know (404 with the list there).
  return orUnsupported(
    request,
    'approvals',
    params.run_id === undefined ? always : whenListMissing(caller, '/approvals'),
  );
}

export async function getApproval(
  caller: SteeringCaller,
  approvalId: string,
  signal?: AbortSignal,
): Promise<ApprovalRecord> {
  return orUnsupported(
    get(caller, `/approvals/${pathSegment(approvalId)}`, undefined, signal, parseApproval),
    'approvals',
    whenListMissing(caller, '/approvals'),
  );
}

/**
 * 200 the approval with its new status. 409 approval_already_decided / approval_expired: the
 * current record is on the error (`conflictApproval(err)`).
 */
export async function decideApproval(
  caller: SteeringCaller,
  approvalId: string,
  body: { decision: ApprovalDecision; note?: string },
  opts: SteeringOptions = {},
): Promise<ApprovalRecord> {
  if (body?.decision !== 'approve' && body?.decision !== 'deny') {
    throw new ApiError({ kind: 'validation', param: 'decision', message: 'A decision is "approve" or "deny".' });
  }
  const note = typeof body.note === 'string' && body.note.trim() !== '' ? { note: body.note } : {};
  const request = post(
    caller,
    `/approvals/${pathSegment(approvalId)}/decision`,
    { decision: body.decision, ...note },
    opts,
    parseApproval,
  );
  return orUnsupported(request, 'approvals', whenListMissing(caller, '/approvals'));
}

export async function getUsage(caller: SteeringCaller, signal?: AbortSignal): Promise<UsageRecord> {
  return orUnsupported(get(caller, '/usage', undefined, signal, parseUsage), 'spend and quota', always);
}
