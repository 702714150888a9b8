// The fault switches: what they are, and the per-instance state that counts them down.

/** Endpoints of the assumed (not specified) features that a server may simply not have. */
export type OptionalEndpoint =
  | 'cancel'
  | 'resume'
  | 'fork'
  | 'approvals'
  | 'usage'
  | 'memory'
  | 'tools'
  | 'connectors'
  | 'webhooks'
  | 'projects'
  | 'budgets';
const OPTIONAL_ENDPOINTS: Record<OptionalEndpoint, RegExp> = {
  cancel: /^\/v1\/runs\/[^/]+\/cancel$/,
  resume: /^\/v1\/runs\/[^/]+\/resume$/,
  fork: /^\/v1\/runs\/[^/]+\/fork$/,
  approvals: /^\/v1\/approvals(\/|$)/,
  usage: /^\/v1\/usage$/,
  memory: /^\/v1\/memory(\/|$)/,
  tools: /^\/v1\/tools(\/|$)/,
  connectors: /^\/v1\/connectors(\/|$)/,
  webhooks: /^\/v1\/webhooks(\/|$)/,
  projects: /^\/v1\/projects(\/|$)/,
  // Without budgets the `budget` of task, resume and fork bodies is ignored too (routes/tasks.ts).
  budgets: /^\/v1\/runs\/[^/]+\/budget$/,
};
const STEERING: OptionalEndpoint[] = ['cancel', 'resume', 'fork', 'approvals'];

export interface FaultSettings {
  dropStreamAfterEvents?: number;
  dropStreamRandom?: { seed: number; maxEventsPerConnection: number };
  failNext?: {
    count: number;
    status: number;
    retryAfterSeconds?: number;
    html?: boolean;
    pathPrefix?: string;
    method?: string;
  };
  commitThenDrop?: { count: number; method?: string; pathPrefix?: string };
  delayMs?: number;
  cutDownloadAfterBytes?: number;
  sseChunkBytes?: number;
  sseLineEnding?: '\n' | '\r\n';
  sseRetryMs?: number;
  /** These endpoints answer as on a server without them (404, or 405 with `missingEndpointStatus`). */
  missingEndpoints?: OptionalEndpoint[];
  /** Shorthand for missingEndpoints cancel, resume, fork and approvals. */
  noSteering?: boolean;
  missingEndpointStatus?: 404 | 405;
  /** The next `count` decisions find the approval decided elsewhere (`decision`, default approve): 409. */
  conflictNextDecision?: { count: number; decision?: 'approve' | 'deny' };
  /** The next `count` budget raises answer 409 budget_too_low with the run, as if its cost had moved past them. */
  budgetTooLowNext?: { count: number };
  /** Wait this long before applying each decision (its Idempotency-Key stays in flight meanwhile). */
  decisionDelayMs?: number;
}

export interface InjectedFailure {
  status: number;
  retryAfterSeconds?: number;
  html: boolean;
}

export class FaultState {
  private settings: FaultSettings = {};
  private random: () => number = Math.random;

  get current(): Readonly<FaultSettings> {
    return this.settings;
  }

  /** Replaces every switch; the counters of failNext/commitThenDrop start again from their count. */
  set(settings: FaultSettings): void {
    this.settings = structuredClone(settings);
    const seeded = settings.dropStreamRandom;
    if (seeded) {
      this.random = mulberry32(seeded.seed);
    }
  }

  /** Takes one of the failNext budget if this request matches it. */
  takeFailure(method: string, pathname: string): InjectedFailure | undefined {
    const rule = this.settings.failNext;
    if (!rule || rule.count <= 0 || !matches(rule, method, pathname)) {
      return undefined;
    }
    rule.count--;
    return { status: rule.status, retryAfterSeconds: rule.retryAfterSeconds, html: rule.html === true };
  }

  /** Takes one of the commitThenDrop budget (POST by default) if this request matches it. */
  takeCommitThenDrop(method: string, pathname: string): boolean {
    const rule = this.settings.commitThenDrop;
    if (!rule || rule.count <= 0 || !matches({ method: 'POST', ...rule }, method, pathname)) {
      return false;
    }
    rule.count--;
    return true;
  }

  /** The status a missing endpoint answers with, if this request is for one. */
  missingEndpoint(pathname: string): 404 | 405 | undefined {
    const missing = [...(this.settings.missingEndpoints ?? []), ...(this.settings.noSteering ? STEERING : [])];
    if (!missing.some((name) => OPTIONAL_ENDPOINTS[name]?.test(pathname))) {
      return undefined;
    }
    return this.settings.missingEndpointStatus ?? 404;
  }

  /** Takes one of the conflictNextDecision budget: the decision someone else made first, if any. */
  takeDecisionConflict(): 'approve' | 'deny' | undefined {
    const rule = this.settings.conflictNextDecision;
    if (!rule || rule.count <= 0) {
      return undefined;
    }
    rule.count--;
    return rule.decision ?? 'approve';
  }

  /** Takes one of the budgetTooLowNext budget: true when this raise is refused. */
  takeBudgetTooLow(): boolean {
    const rule = this.settings.budgetTooLowNext;
    if (!rule || rule.count <= 0) {
      return false;
    }
    rule.count--;
    return true;
  }

  /** How many events the next SSE connection may carry before it is destroyed, if limited. */
  streamEventBudget(): number | undefined {
    const fixed = this.settings.dropStreamAfterEvents;
    const seeded = this.settings.dropStreamRandom;
    const randomBudget = seeded
      ? 1 + Math.floor(this.random() * Math.max(1, seeded.maxEventsPerConnection))
      : undefined;
    if (fixed !== undefined && randomBudget !== undefined) {
      return Math.min(fixed, randomBudget);
    }
    return fixed ?? randomBudget;
  }
}

function matches(rule: { method?: string; pathPrefix?: string }, method: string, pathname: string): boolean {
  if (rule.method && rule.method.toUpperCase() !== method) {
    return false;
  }
  if (rule.pathPrefix && !pathname.startsWith(rule.pathPrefix)) {
    return false;
  }
  return true;
}

/** A small seeded PRNG: the same seed gives the same drop points on every run. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
