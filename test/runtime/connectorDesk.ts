// Connectors: what the agent can reach (seeded once: GitHub and Slack), their grants, revoking them.
import { conflict, notFound } from './httpErrors';
import { type ConnectorRecord, newId, nowTimestamp } from './records';
import { RecordStore } from './recordStore';

export class ConnectorDesk {
  readonly store: RecordStore<ConnectorRecord>;

  constructor(dir: string) {
    this.store = new RecordStore(dir);
    if (this.store.all().length === 0) {
      this.seed();
    }
  }

  byKind(kind: string): ConnectorRecord | undefined {
    return this.store.all().find((c) => c.kind === kind);
  }

  require(id: string): ConnectorRecord {
    const found = this.store.get(id);
    if (!found) {
      throw notFound(`No connector with id ${id}.`, 'id');
    }
    return found;
  }

  removeGrant(id: string, grantId: string): ConnectorRecord {
    const connector = this.require(id);
    if (!connector.grants.some((g) => g.id === grantId)) {
      throw notFound(`The connector has no grant ${grantId}.`, 'grant_id');
    }
    return this.store.update(id, { grants: connector.grants.filter((g) => g.id !== grantId) });
  }

  revoke(id: string): ConnectorRecord {
    const connector = this.require(id);
    if (connector.status === 'revoked') {
      throw conflict('connector_revoked', 'The connector is already revoked.');
    }
    return this.store.update(id, { status: 'revoked', grants: [] });
  }

  private seed(): void {
    const now = nowTimestamp();
    const grant = (scope: string, resource?: string) => ({
      id: newId('grant'),
      scope,
      ...(resource ? { resource } : {}),
      created_at: now,
    });
    this.store.insert({
      id: newId('conn'),
      object: 'connector',
      kind: 'slack',
      name: 'Slack',
      account: 'acme.slack.com',
      status: 'needs_attention',
      grants: [grant('chat:write', '#builds')],
      created_at: now,
    });
    this.store.insert({
      id: newId('conn'),
      object: 'connector',
      kind: 'github',
      name: 'GitHub',
      account: 'octo-org',
      status: 'active',
      grants: [
        grant('contents:read', 'octo-org/site'),
        grant('issues:write', 'octo-org/site'),
        grant('pull_requests:write'),
      ],
      created_at: now,
    });
  }
}
