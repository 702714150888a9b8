// Hostile mode: the runtime still works end to end, but answers with the nastiest values of each kind (README "Hostile mode").
import type { IncomingMessage, ServerResponse } from 'node:http';
import { downloadsAreHostile, serveHostileContent } from './hostile/downloads';
import { eventsAreHostile, serveHostileEvents } from './hostile/events';
import {
  CYCLE_CURSORS,
  FRESH_CURSOR_PREFIX,
  poisonError,
  poisonList,
  poisonRecord,
  switchedOn,
} from './hostile/jsonBodies';
import { type HostileOptions, resolveHostile } from './hostile/options';
import { hostileProjectPatch, isProjectPatchArtifact } from './hostile/projectPatches';
import { hostileErrorMessage, hostileName, HTML_PAYLOAD } from './hostile/values';
import { HttpError, sendJson } from './httpErrors';
import { parseJsonObject, readBody, type Reply, type RequestContext } from './routes/routeTypes';

export { HOSTILE_ALL, type HostileOptions } from './hostile/options';
export {
  BIDI_OVERRIDE,
  COMMAND_LINK,
  HOSTILE_NAMES,
  HOSTILE_SECRET,
  MARKDOWN_LURE,
  HTML_PAYLOAD,
  ROTATING_PAYLOADS,
} from './hostile/values';
export { BIG_SEQUENCES, HOSTILE_COMMENT_ID, HOSTILE_EVENT_NAMES, OTHER_RUN_ID } from './hostile/events';
export {
  HOSTILE_BINARY_PATH,
  HOSTILE_DOTGIT_PATHS,
  HOSTILE_PATCH_NAMES,
  HOSTILE_PATCH_PATHS,
  WIDE_PATCH_HOOK,
  WIDE_PATCH_HOOK_PLACE,
  wideProjectPatchPaths,
} from './hostile/projectPatches';
export { CYCLE_CURSORS, FRESH_CURSOR_PREFIX } from './hostile/jsonBodies';

const RECORD_PATH = /^\/v1\/(?:files|tasks|runs)\/[^/]+(?:\/content)?$/;
const EVENTS_PATH = /^\/v1\/runs\/([^/]+)\/events$/;
const CONTENT_PATH = /^\/v1\/files\/([^/]+)\/content$/;
const ADMIN_PATH = '/__admin/hostile';
const EVIL_ORIGIN = 'https://evil.example';

/** Per-request notes from intercept() for transformReply(). */
interface RequestNote {
  cyclePage?: number;
}

export class HostileState {
  private options: HostileOptions | undefined;
  private ordinals = new Map<string, number>();
  private posts = 0;
  private conflicts = 0;
  private recordGets = 0;
  private redirects = 0;
  private freshCursors = 0;
  private readonly notes = new WeakMap<IncomingMessage, RequestNote>();

  constructor(initial?: HostileOptions | boolean) {
    this.set(initial);
  }

  /** The effective switches; `{}` when off. */
  get current(): HostileOptions {
    return this.options ?? {};
  }

  /** Replaces every switch and starts the counters (POSTs, GETs, record order) again. */
  set(value: HostileOptions | boolean | undefined): void {
    this.options = resolveHostile(value);
    this.ordinals = new Map();
    this.posts = this.conflicts = this.recordGets = this.redirects = this.freshCursors = 0;
  }

  /**
   * Runs after authentication, before the route. Answers instead of the route (a Reply to send,
   * or 'handled' when it wrote the response itself), or undefined to let the route answer.
   */
  async intercept(ctx: RequestContext, method: string): Promise<Reply | 'handled' | undefined> {
    const options = this.options;
    if (!options) {
      return undefined;
    }
    const { req, url } = ctx;
    const pathname = url.pathname;
    const everything = options.errorEverything;
    if (everything && matchesRule(everything === true ? {} : everything, method, pathname)) {
      await drain(req);
      const status = everything === true ? 400 : (everything.status ?? 400);
      return {
        status,
        body: new HttpError(
          status,
          'invalid_request_error',
          'hostile',
          hostileErrorMessage('Every request fails in this mode.'),
          HTML_PAYLOAD,
        ).body(),
      };
    }
    if (
      method === 'POST' &&
      (options.conflictEvery ?? 0) > 0 &&
      ++this.posts % (options.conflictEvery as number) === 0
    ) {
      await drain(req);
      const inUse = ++this.conflicts % 2 === 1;
      const code = inUse ? 'idempotency_key_in_use' : 'idempotency_key_reused';
      const message = inUse
        ? 'A request with this Idempotency-Key is still being processed; retry after it finishes.'
        : 'This Idempotency-Key was already used for a different request.';
      return { status: 409, body: new HttpError(409, 'idempotency_error', code, message, 'Idempotency-Key').body() };
    }
    if (method !== 'GET') {
      return undefined;
    }
    if (
      RECORD_PATH.test(pathname) &&
      (options.redirectEvery ?? 0) > 0 &&
      ++this.recordGets % (options.redirectEvery as number) === 0
    ) {
      const toLoopback = ++this.redirects % 2 === 1;
      const target = toLoopback ? `http://127.0.0.2:${req.socket.localPort ?? 80}` : EVIL_ORIGIN;
      return {
        status: toLoopback ? 302 : 307,
        body: { redirect: target },
        headers: { Location: `${target}${pathname}${url.search}` },
      };
    }
    if (url.searchParams.get('after')?.startsWith(FRESH_CURSOR_PREFIX) && switchedOn(options.freshCursor, pathname)) {
      url.searchParams.delete('after'); // our own cursor: the first page again
    }
    const cyclePage = CYCLE_CURSORS.indexOf(url.searchParams.get('after') as (typeof CYCLE_CURSORS)[number]) + 1;
    if (cyclePage > 0 && switchedOn(options.cyclingCursor, pathname)) {
      // Our own cursor: serve the first page again (the route would not know it).
      url.searchParams.delete('after');
      this.notes.set(req, { cyclePage });
    }
    const events = EVENTS_PATH.exec(pathname);
    if (events && eventsAreHostile(options)) {
      return this.serveEvents(ctx, events[1], options);
    }
    const content = CONTENT_PATH.exec(pathname);
    if (content && (options.projectPatches || (options.wideProjectPatchFiles ?? 0) > 0)) {
      const fileId = decodeURIComponent(content[1]);
      const artifact = ctx.core.artifacts.all().find((a) => a.file_id === fileId);
      if (isProjectPatchArtifact(artifact)) {
        const chunks: Buffer[] = [];
        for await (const chunk of ctx.core.blobs.openRead(fileId)) {
          chunks.push(chunk as Buffer);
        }
        const body = hostileProjectPatch(Buffer.concat(chunks).toString('utf8'), {
          refusedParts: options.projectPatches === true,
          padToBytes: options.projectPatches ? (options.hugeProjectPatchBytes ?? 0) : 0,
          wideFiles: options.wideProjectPatchFiles ?? 0,
        });
        ctx.res.writeHead(200, { 'Content-Type': 'text/x-diff', 'Content-Length': String(body.length) });
        ctx.res.end(body);
        return 'handled';
      }
    }
    if (content && downloadsAreHostile(options)) {
      const file = ctx.core.files.get(decodeURIComponent(content[1]));
      if (!file) {
        return undefined;
      }
      await serveHostileContent(
        ctx.res,
        ctx.core,
        file,
        options.names ? hostileName((options.seed ?? 1) + this.ordinal(file.id)) : file.filename,
        options,
      );
      return 'handled';
    }
    return undefined;
  }

  /** What the client gets instead of `reply`: a poisoned copy (the original may be a stored record). */
  transformReply(req: IncomingMessage, reply: Reply): Reply {
    const options = this.options;
    const pathname = new URL(req.url ?? '/', 'http://runtime.invalid').pathname;
    if (
      !options ||
      !pathname.startsWith('/v1/') ||
      typeof reply.body !== 'object' ||
      reply.body === null ||
      Array.isArray(reply.body)
    ) {
      return reply;
    }
    const body = structuredClone(reply.body) as Record<string, unknown>;
    if (reply.status >= 400) {
      if (options.errorMessages || options.secretInErrors) {
        poisonError(body, options);
      }
    } else if (body.object === 'list' && Array.isArray(body.data)) {
      const freshCursor = () => `${FRESH_CURSOR_PREFIX}${++this.freshCursors}`;
      poisonList(body, options, (id) => this.ordinal(id), {
        pathname,
        cyclePage: this.notes.get(req)?.cyclePage,
        freshCursor,
      });
    } else {
      poisonRecord(body, options, (id) => this.ordinal(id));
    }
    return { ...reply, body };
  }

  /** `GET|POST|DELETE /__admin/hostile`; false when the path is another one. */
  async handleAdmin(req: IncomingMessage, res: ServerResponse, method: string, pathname: string): Promise<boolean> {
    if (pathname !== ADMIN_PATH) {
      return false;
    }
    if (method === 'POST') {
      const raw = await readBody(req);
      const text = raw.toString('utf8').trim();
      if (text === 'true' || text === 'false') {
        this.set(text === 'true');
      } else {
        this.set(parseJsonObject(raw));
      }
    } else if (method === 'DELETE') {
      this.set(false);
    } else if (method !== 'GET') {
      throw new HttpError(
        405,
        'invalid_request_error',
        'method_not_allowed',
        `${method} is not allowed here; use GET, POST, DELETE.`,
        undefined,
        { Allow: 'GET, POST, DELETE' },
      );
    }
    sendJson(res, 200, { enabled: this.options !== undefined, options: this.current });
    return true;
  }

  private async serveEvents(
    ctx: RequestContext,
    runId: string,
    options: HostileOptions,
  ): Promise<Reply | 'handled' | undefined> {
    const log = ctx.core.runs.get(runId) ? ctx.core.logFor(runId) : undefined;
    if (!log) {
      return undefined;
    }
    const faults = ctx.faults.current;
    await serveHostileEvents(
      ctx.res,
      log,
      afterSequence(ctx),
      {
        keepAliveMs: ctx.keepAliveMs,
        lineEnding: faults.sseLineEnding ?? '\n',
        chunkBytes: faults.sseChunkBytes,
        retryMs: faults.sseRetryMs,
        dropAfterEvents: ctx.faults.streamEventBudget(),
      },
      options,
    );
    return 'handled';
  }

  private ordinal(id: string): number {
    let found = this.ordinals.get(id);
    if (found === undefined) {
      found = this.ordinals.size;
      this.ordinals.set(id, found);
    }
    return found;
  }
}

/** `after` or Last-Event-ID; any digits are taken, even past 2^53, since we hand out such sequences. */
function afterSequence(ctx: RequestContext): number {
  const header = ctx.req.headers['last-event-id'];
  const raw = ctx.url.searchParams.get('after') ?? (typeof header === 'string' ? header : '');
  return /^\d+$/.test(raw) ? Number(raw) : 0;
}

function matchesRule(rule: { method?: string; pathPrefix?: string }, method: string, pathname: string): boolean {
  if (rule.method && rule.method.toUpperCase() !== method) {
    return false;
  }
  return !rule.pathPrefix || pathname.startsWith(rule.pathPrefix);
}

/** Reads and drops a request body we answer without looking at, so the client can read the answer. */
async function drain(req: IncomingMessage): Promise<void> {
  for await (const _chunk of req) {
    // discarded
  }
}
