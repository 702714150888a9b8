// Webhooks: callback endpoints. The secret is returned once at creation; deliveries are signed with it.
import { createHmac, randomBytes } from 'node:crypto';
import { badRequest, notFound } from './httpErrors';
import { newId, nowTimestamp, WEBHOOK_EVENTS, type WebhookRecord } from './records';
import { RecordStore } from './recordStore';

/** Never served: the signing secret of each webhook. */
interface WebhookMeta {
  secret: string;
}

/** How long a delivery may take before it counts as failed. */
const DELIVERY_TIMEOUT_MS = 5000;
const MAX_URL_CHARS = 2048;

export interface DeliveryResult {
  object: 'webhook_delivery';
  status_code?: number;
  duration_ms: number;
  error?: { message: string };
}

/** `Agent-Runtime-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host) || host === '0.0.0.0'
  );
}

export class WebhookDesk {
  readonly store: RecordStore<WebhookRecord, WebhookMeta>;
  private readonly inFlight = new Set<Promise<unknown>>();

  /** `allowLoopback`: tests deliver to a receiver on 127.0.0.1 over plain http. */
  constructor(
    dir: string,
    private readonly allowLoopback: boolean,
  ) {
    this.store = new RecordStore(dir);
  }

  require(id: string): WebhookRecord {
    const found = this.store.get(id);
    if (!found) {
      throw notFound(`No webhook with id ${id}.`, 'id');
    }
    return found;
  }

  validate(body: Record<string, unknown>): { url: string; events: string[] } {
    const { url, events } = body;
    if (typeof url !== 'string' || url === '') {
      throw badRequest('url must be an https URL.', 'url', url === undefined ? 'missing_parameter' : 'invalid_url');
    }
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw badRequest('url is not a valid URL.', 'url', 'invalid_url');
    }
    const loopback = isLoopbackHost(parsed.hostname);
    const allowedLoopback =
      this.allowLoopback && loopback && (parsed.protocol === 'http:' || parsed.protocol === 'https:');
    if (
      !allowedLoopback &&
      (parsed.protocol !== 'https:' || loopback || url.length > MAX_URL_CHARS || parsed.username || parsed.password)
    ) {
      throw badRequest(
        'url must be an https URL of a host on the internet (no loopback address, no user info).',
        'url',
        'invalid_url',
      );
    }
    if (
      !Array.isArray(events) ||
      events.length === 0 ||
      events.some((e) => typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e))
    ) {
      throw badRequest(
        `events must be a non-empty array of: ${WEBHOOK_EVENTS.join(', ')}.`,
        'events',
        events === undefined ? 'missing_parameter' : 'invalid_parameter',
      );
    }
    return { url, events: [...new Set(events as string[])] };
  }

  /** The record plus its secret: the only time the secret is ever returned. */
  create(url: string, events: string[]): WebhookRecord & { secret: string } {
    const secret = `whsec_${randomBytes(24).toString('hex')}`;
    const record = this.store.insert(
      { id: newId('wh'), object: 'webhook', url, events, status: 'enabled', created_at: nowTimestamp() },
      { secret },
    );
    return { ...record, secret };
  }

  delete(id: string): void {
    this.require(id);
    this.store.hide(id);
  }

  /** A signed `webhook.test` delivery, answered with what the receiver said and how long it took. */
  test(id: string): Promise<DeliveryResult> {
    const webhook = this.require(id);
    return this.deliver(webhook, 'webhook.test', { webhook_id: webhook.id });
  }

  /** Every enabled webhook subscribed to `type` gets the event (fire and forget; close() waits). */
  broadcast(type: string, data: Record<string, unknown>): void {
    for (const webhook of this.store.all()) {
      if (webhook.status !== 'enabled' || !(webhook.events.includes(type) || webhook.events.includes('*'))) {
        continue;
      }
      const delivery = this.deliver(webhook, type, data);
      this.inFlight.add(delivery);
      void delivery.finally(() => this.inFlight.delete(delivery));
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private async deliver(webhook: WebhookRecord, type: string, data: Record<string, unknown>): Promise<DeliveryResult> {
    const secret = this.store.meta(webhook.id)?.secret ?? '';
    const body = JSON.stringify({ id: newId('evt'), object: 'event', type, created_at: nowTimestamp(), data });
    const started = Date.now();
    try {
      const res = await fetch(webhook.url, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'User-Agent': 'agent-runtime-webhooks/1',
          'Agent-Runtime-Signature': signatureHeader(secret, body, Math.floor(Date.now() / 1000)),
        },
        body,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      return { object: 'webhook_delivery', status_code: res.status, duration_ms: Date.now() - started };
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError';
      return {
        object: 'webhook_delivery',
        duration_ms: Date.now() - started,
        error: {
          message: timedOut
            ? `The receiver did not answer within ${DELIVERY_TIMEOUT_MS} ms.`
            : 'The receiver could not be reached.',
        },
      };
    }
  }
}
