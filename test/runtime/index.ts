// The reference Agent Runtime: startRuntime() gives a real HTTP server on loopback (see README.md).
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { type FaultSettings, FaultState } from './faults';
import { type HostileOptions, HostileState } from './hostile';
import { HttpDispatcher } from './httpDispatcher';
import { IdempotencyStore } from './idempotency';
import { type ApprovalRecord, type ApprovalStatus, MAX_UPLOAD_BYTES, type Money } from './records';
import { DEFAULT_CORE_SETTINGS, RuntimeCore, type SyntheticApproval } from './runtimeCore';

export type { HostileOptions } from './hostile';
export type { FaultSettings, OptionalEndpoint } from './faults';
export type { ApprovalRecord, Money } from './records';
export type { SyntheticApproval } from './runtimeCore';
export { signatureHeader } from './webhookDesk';

export interface RuntimeOptions {
  host?: string;
  port?: number;
  dataDir?: string;
  apiKeys?: string[];
  readOnlyKeys?: string[];
  adminKey?: string;
  eventDelayMs?: number;
  keepAliveMs?: number;
  /** Upload limit; default the spec's 512 MB. Tests lower it to provoke a 413 cheaply. */
  maxUploadBytes?: number;
  /** How long an approval waits for a decision before it expires; default 5 minutes. */
  approvalTimeoutMs?: number;
  /** Approvals expire by the real clock moved ahead this far (a restart "later", for tests); default 0. */
  approvalClockOffsetMs?: number;
  /** Attachments a task may take; default 100 (past it: 400 too_many_attachments). */
  maxAttachments?: number;
  /** What GET /v1/usage reports as the quota; default 100.00 USD, null for none. */
  quota?: Money | null;
  /** Webhooks may point at http(s)://127.0.0.1 / localhost, so tests can receive deliveries; default false. */
  allowLoopbackWebhooks?: boolean;
  faults?: FaultSettings;
  /** Hostile mode (README "Hostile mode"): true = every family at sane sizes; off by default. */
  hostile?: HostileOptions | boolean;
  /**
   * Repository URL -> a local git repository standing in for the service's clone: a project of
   * that URL (created now or later) reads its commits there, as the admin checkout mapping does.
   */
  projectCheckouts?: Record<string, string>;
  log?: (line: string) => void;
}

export interface SyntheticRunRequest {
  events: number;
  terminal?: 'completed' | 'failed' | 'cancelled' | null;
  live?: boolean;
  unknownKinds?: boolean;
  taskObjective?: string;
  /** After its events the run asks for this approval, waits, then goes on to `terminal`. */
  approval?: SyntheticApproval;
  /** The run's usage.cost amount in USD, e.g. "12.40" (counted in GET /v1/usage); default no usage. */
  cost?: string;
}

export interface RuntimeHandle {
  baseUrl: string;
  port: number;
  apiKey: string;
  adminKey: string;
  dataDir: string;
  setFaults(faults: FaultSettings): void;
  clearFaults(): void;
  /** Replaces the hostile switches (false = off). */
  setHostile(hostile: HostileOptions | boolean): void;
  createSyntheticRun(opts: SyntheticRunRequest): Promise<string>;
  appendEvent(runId: string, event: string, data: Record<string, unknown>): number;
  appendRawEvent(runId: string, rawSse: string): void;
  endRun(runId: string, status: 'completed' | 'failed' | 'cancelled'): void;
  eventLog(runId: string): { sequence: number; event: string }[];
  /** Approvals, newest first, optionally of one run and/or one status. */
  listApprovals(filter?: { runId?: string; status?: ApprovalStatus }): ApprovalRecord[];
  /** Decides as a person would (throws the 409 HttpError when it is no longer pending). */
  decideApproval(approvalId: string, decision: 'approve' | 'deny', note?: string): ApprovalRecord;
  /** Moves the approvals' clock ahead: what is due by then expires at once (no waiting, no race). */
  advanceApprovalClock(ms: number): void;
  /**
   * Counts the requests of `method` whose path matches `pattern`, from now until stop(), as they
   * arrive (before faults, auth or routing): how many attempts a client really made.
   */
  countRequests(method: string, pattern: RegExp): { readonly count: number; stop(): void };
  /** Tests: the project's commits are read from this local git repository (absolute path). */
  setProjectCheckout(projectId: string, dir: string): void;
  /** The instructions a resumed or forked run received (undefined: none). */
  runInstructions(runId: string): string | undefined;
  close(): Promise<void>;
}

/**
 * Temp data dirs made here and not yet removed by close(): a test process that exits without
 * closing its runtime (mocha --exit, an uncaught error) still leaves nothing behind in /tmp.
 */
const ownedDataDirs = new Set<string>();
let exitHookInstalled = false;

function removeAtExit(dir: string): void {
  ownedDataDirs.add(dir);
  if (exitHookInstalled) {
    return;
  }
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const owned of ownedDataDirs) {
      fs.rmSync(owned, { recursive: true, force: true });
    }
  });
}

export async function startRuntime(options: RuntimeOptions = {}): Promise<RuntimeHandle> {
  const host = options.host ?? '127.0.0.1';
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'agent-runtime-'));
  fs.mkdirSync(dataDir, { recursive: true });
  if (ownsDataDir) {
    removeAtExit(dataDir);
  }
  const apiKeys = options.apiKeys ?? ['test-key'];
  if (apiKeys.length === 0) {
    throw new Error('startRuntime needs at least one API key');
  }
  const adminKey = options.adminKey ?? 'admin-key';
  const log = options.log ?? (() => undefined);

  const core = new RuntimeCore(dataDir, options.eventDelayMs ?? 0, log, {
    approvalTimeoutMs: options.approvalTimeoutMs ?? DEFAULT_CORE_SETTINGS.approvalTimeoutMs,
    approvalClockOffsetMs: options.approvalClockOffsetMs,
    maxAttachments: options.maxAttachments ?? DEFAULT_CORE_SETTINGS.maxAttachments,
    quota: options.quota === undefined ? DEFAULT_CORE_SETTINGS.quota : options.quota,
    allowLoopbackWebhooks: options.allowLoopbackWebhooks === true,
    projectCheckouts: options.projectCheckouts,
  });
  const faults = new FaultState();
  faults.set(options.faults ?? {});
  core.meterEveryRun = () => faults.current.missingEndpoints?.includes('budgets') === true;
  const hostile = new HostileState(options.hostile);
  const dispatcher = new HttpDispatcher(
    core,
    faults,
    new IdempotencyStore(path.join(dataDir, 'idempotency')),
    {
      apiKeys,
      readOnlyKeys: options.readOnlyKeys ?? [],
      adminKey,
      keepAliveMs: options.keepAliveMs ?? 15000,
      maxUploadBytes: options.maxUploadBytes ?? MAX_UPLOAD_BYTES,
      log,
    },
    hostile,
  );
  // requestTimeout 0: a 512 MB upload over a slow link must not be cut by Node's default 5 minutes.
  const server = http.createServer(
    { noDelay: true, requestTimeout: 0 },
    (req, res) => void dispatcher.handle(req, res),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  const requireRun = (runId: string) => {
    const eventLog = core.logFor(runId);
    if (!eventLog) {
      throw new Error(`unknown run ${runId}`);
    }
    return eventLog;
  };

  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://${urlHost}:${port}`,
    port,
    apiKey: apiKeys[0],
    adminKey,
    dataDir,
    setFaults: (settings) => faults.set(settings),
    clearFaults: () => faults.set({}),
    setHostile: (settings) => hostile.set(settings),
    createSyntheticRun: (opts) => core.createSyntheticRun(opts),
    appendEvent: (runId, event, data) => {
      requireRun(runId);
      return core.appendEvent(runId, event, data);
    },
    appendRawEvent: (runId, rawSse) => {
      requireRun(runId);
      core.appendRawEvent(runId, rawSse);
    },
    endRun: (runId, status) => {
      requireRun(runId);
      core.endRun(runId, status);
    },
    eventLog: (runId) => requireRun(runId).summary(),
    listApprovals: (filter = {}) => {
      core.approvals.expireDue();
      return [...core.approvals.store.newestFirst()]
        .map((entry) => entry.record)
        .filter(
          (a) =>
            (filter.runId === undefined || a.run_id === filter.runId) &&
            (filter.status === undefined || a.status === filter.status),
        );
    },
    decideApproval: (approvalId, decision, note) => {
      if (!core.approvals.get(approvalId)) {
        throw new Error(`unknown approval ${approvalId}`);
      }
      return core.decide(approvalId, decision, note);
    },
    advanceApprovalClock: (ms) => core.approvals.advance(ms),
    countRequests: (method, pattern) => {
      const counter = { method: method.toUpperCase(), pattern, count: 0 };
      dispatcher.counters.add(counter);
      return {
        get count() {
          return counter.count;
        },
        stop: () => void dispatcher.counters.delete(counter),
      };
    },
    setProjectCheckout: (projectId, dir) => core.setProjectCheckout(projectId, dir),
    runInstructions: (runId) => core.runs.meta(runId)?.agent?.followUp?.text,
    close: () => {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await core.close();
        server.closeAllConnections();
        await stopped;
        if (ownsDataDir) {
          fs.rmSync(dataDir, { recursive: true, force: true });
          ownedDataDirs.delete(dataDir);
        }
      })();
      return closing;
    },
  };
}
