// What the Tools, Connectors and Webhooks surfaces show: readable documents for a tool and an
// invocation record, the lines of a revoke question, a row's words. Every string of a record is
// data: inert() for rows and questions; documents are plain text with hidden characters made
// visible. Pure: no vscode.
import type {
  ConnectorGrant,
  ConnectorRecord,
  InvocationRecord,
  ToolRecord,
  WebhookDelivery,
  WebhookRecord,
} from '../api/resourceTypes';
import { inert } from '../common/inertText';
import type { Translate } from '../common/translate';
import { visibleText } from '../common/visibleText';

/** A document holds at most this much of one outside text (an output is at most 1 MiB anyway). */
const MAX_DOC_FIELD_CHARS = 1024 * 1024;
const MAX_JSON_CHARS = 256 * 1024;

/** Outside text for a document: hidden characters visible, line breaks kept, bounded. */
function docText(value: unknown, max = MAX_DOC_FIELD_CHARS): string {
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  const cut = text.length > max;
  return visibleText(cut ? text.slice(0, max) : text, { lineBreaks: true }) + (cut ? '\n…' : '');
}

function json(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? '';
  } catch {
    text = '';
  }
  return docText(text, MAX_JSON_CHARS);
}

export function toolLabel(tool: ToolRecord, t: Translate): string {
  return tool.name ? inert(tool.name, 80) : t('(unnamed tool)');
}

export function toolDescription(tool: ToolRecord, t: Translate): string {
  const parts = [
    tool.requires_approval ? t('needs approval') : undefined,
    tool.description ? inert(tool.description, 100) : undefined,
  ];
  return parts.filter((p): p is string => p !== undefined).join(' · ');
}

export function toolDocument(tool: ToolRecord, t: Translate): string {
  const lines = [
    `# ${docText(tool.name ?? tool.id, 200).replace(/\n/g, ' ')}`,
    '',
    docText(tool.description ?? ''),
    '',
    `- ${t('Id')}: ${docText(tool.id, 200)}`,
    `- ${t('Needs approval')}: ${tool.requires_approval ? t('yes') : t('no')}`,
  ];
  if (tool.connector_id) {
    lines.push(`- ${t('Connector')}: ${docText(tool.connector_id, 200)}`);
  }
  lines.push(
    '',
    `## ${t('Input schema')}`,
    '',
    '```json',
    tool.input_schema ? json(tool.input_schema) : t('(none given)'),
    '```',
    '',
  );
  return lines.join('\n');
}

export function invocationDocument(inv: InvocationRecord, t: Translate): string {
  const lines = [
    `# ${t('Tool call')}: ${docText(inv.tool ?? '?', 200).replace(/\n/g, ' ')}`,
    '',
    `- ${t('Id')}: ${docText(inv.id, 200)}`,
    `- ${t('Status')}: ${docText(inv.status ?? '?', 60)}`,
    `- ${t('Run')}: ${docText(inv.run_id ?? '?', 200)}${inv.sequence !== undefined ? ` #${inv.sequence}` : ''}`,
    `- ${t('Step')}: ${docText(inv.step_id ?? '?', 200)}`,
    `- ${t('Started')}: ${docText(inv.started_at ?? '?', 60)}`,
  ];
  if (inv.duration_ms !== undefined) {
    lines.push(`- ${t('Duration')}: ${t('{0} ms', inv.duration_ms)}`);
  }
  lines.push('', `## ${t('Arguments')}`, '', '```json', inv.arguments ? json(inv.arguments) : '{}', '```');
  if (inv.error) {
    lines.push('', `## ${t('Error')}`, '', docText(inv.error.message, 64 * 1024));
  }
  lines.push('', `## ${t('Output')}`, '');
  if (inv.output_truncated) {
    lines.push(t('(The service cut this output: it is longer than what is shown.)'), '');
  }
  lines.push(inv.output !== undefined ? docText(inv.output) : t('(no output)'), '');
  return lines.join('\n');
}

export function connectorLabel(connector: ConnectorRecord, t: Translate): string {
  return inert(connector.name ?? connector.kind ?? t('(unnamed connector)'), 80);
}

export function connectorDescription(connector: ConnectorRecord): string {
  return inert([connector.account, connector.status].filter((p) => p).join(' · '), 120);
}

export function grantLabel(grant: ConnectorGrant, t: Translate): string {
  return inert(grant.scope ?? t('(unnamed grant)'), 80);
}

/** The lines of the revoke question: exactly what goes (the connector, its account, each grant). */
export function revokeLines(connector: ConnectorRecord, grant: ConnectorGrant | undefined, t: Translate): string[] {
  const who = `${connectorLabel(connector, t)}${connector.account ? ` (${inert(connector.account, 80)})` : ''}`;
  const grantLine = (g: ConnectorGrant): string =>
    `• ${grantLabel(g, t)}${g.resource ? ` ${t('on')} ${inert(g.resource, 120)}` : ''}`;
  if (grant) {
    return [t('Connector: {0}', who), t('Grant that goes:'), grantLine(grant)];
  }
  const grants = connector.grants.slice(0, 50).map(grantLine);
  if (connector.grants.length > 50) {
    grants.push(t('… and {0} more', connector.grants.length - 50));
  }
  return [
    t('Connector: {0}', who),
    t('The whole connector is revoked, with every grant:'),
    ...(grants.length > 0 ? grants : [t('(no grants)')]),
  ];
}

export function webhookLabel(webhook: WebhookRecord, t: Translate): string {
  return webhook.url ? inert(webhook.url, 120) : t('(no URL)');
}

export function webhookDescription(webhook: WebhookRecord): string {
  return inert([webhook.events.slice(0, 10).join(', '), webhook.status].filter((p) => p).join(' · '), 160);
}

/** The test delivery's outcome in one sentence (status code and time, or the error). */
export function deliverySentence(delivery: WebhookDelivery, t: Translate): string {
  const ms = delivery.duration_ms !== undefined ? delivery.duration_ms : '?';
  if (delivery.status_code !== undefined) {
    return t('Test delivery: the receiver answered {0} in {1} ms.', delivery.status_code, ms);
  }
  return t('Test delivery failed after {0} ms: {1}', ms, inert(delivery.error?.message ?? t('no answer'), 300));
}

/** https only (the service refuses anything else; we say so before sending). */
export function webhookUrlProblem(url: string, t: Translate): string | undefined {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url.trim());
  } catch {
    parsed = undefined;
  }
  if (!parsed) {
    return t('Enter a URL such as https://example.com/hooks/agent.');
  }
  if (parsed.protocol !== 'https:') {
    return t('A webhook URL must start with https://.');
  }
  return undefined;
}
