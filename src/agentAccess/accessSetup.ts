// What the agent may use and who hears about it: the Tools view (search, a tool's
// description and input schema as a document, an invocation record as a document), the
// Connectors view (revoke one grant or a whole connector after a modal naming exactly what goes)
// and the Webhooks view (create with https and picked events, the secret shown once with Copy and
// kept nowhere, Send Test Delivery, delete after asking). Each view shows a message when the
// service does not offer its resource; the rest of the extension is not affected.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import {
  type ConnectorGrant,
  type ConnectorRecord,
  type ToolRecord,
  WEBHOOK_EVENT_NAMES,
  type WebhookRecord,
} from '../api/resourceTypes';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { describeErrorForUser } from '../commandSupport/errorText';
import { questionSkipped } from '../commandSupport/questionSkip';
import { overflowRows, showSearchPick } from '../commandSupport/searchPick';
import { Commands, ViewIds } from '../common/ids';
import { inert } from '../common/inertText';
import { askModal, notify } from '../common/notify';
import { ReadOnlyFileSystem } from '../common/readOnlyFileSystem';
import type { Translate } from '../common/translate';
import { type PagedNode, PagedTree, pagedTreeDeps, registerPagedTree } from '../views/pagedTree';
import {
  connectorDescription,
  connectorLabel,
  deliverySentence,
  grantLabel,
  invocationDocument,
  revokeLines,
  toolDescription,
  toolDocument,
  toolLabel,
  webhookDescription,
  webhookLabel,
  webhookUrlProblem,
} from './accessText';

/** Tools one search shows at most. */
const TOOL_SEARCH_RESULTS = 50;

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

export const TOOLS_SCHEME = 'agent-runtime-tools';
const SAFE_ID = /^[A-Za-z0-9_-]{1,200}$/;

export function toolUri(id: string): vscode.Uri {
  if (!SAFE_ID.test(id)) {
    throw new UserFacingError(t('That is not a tool id.'));
  }
  return vscode.Uri.from({ scheme: TOOLS_SCHEME, path: `/tools/${id}.md` });
}

export function invocationUri(id: string): vscode.Uri {
  if (!SAFE_ID.test(id)) {
    throw new UserFacingError(t('That is not a tool call id.'));
  }
  return vscode.Uri.from({ scheme: TOOLS_SCHEME, path: `/invocations/${id}.md` });
}

/** Tools and invocation records as read-only Markdown documents, fetched when opened. */
class ToolDocuments extends ReadOnlyFileSystem {
  private readonly cache = new Map<string, Uint8Array>();

  constructor(private readonly deps: CommandDeps) {
    super();
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const bytes = await this.load(uri);
    return {
      type: vscode.FileType.File,
      ctime: 0,
      mtime: 0,
      size: bytes.length,
      permissions: vscode.FilePermission.Readonly,
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.load(uri);
  }

  private async load(uri: vscode.Uri): Promise<Uint8Array> {
    const key = uri.path;
    const known = this.cache.get(key);
    if (known) {
      return known;
    }
    const found = /^\/(tools|invocations)\/([A-Za-z0-9_-]{1,200})\.md$/.exec(uri.path);
    if (!found) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    const client = this.deps.service.client;
    let text: string;
    let settled = true;
    try {
      if (found[1] === 'tools') {
        text = toolDocument(await client.getTool(found[2]), t);
      } else {
        const invocation = await client.getInvocation(found[2]);
        // A call still running changes: read it again next time.
        settled = invocation.status !== 'running';
        text = invocationDocument(invocation, t);
      }
    } catch (err) {
      if (isApiError(err, 'not_found')) {
        throw vscode.FileSystemError.FileNotFound(uri);
      }
      throw vscode.FileSystemError.Unavailable(describeErrorForUser(err));
    }
    const bytes = new TextEncoder().encode(text);
    if (this.cache.size > 50) {
      this.cache.clear();
    }
    if (settled) {
      this.cache.set(key, bytes);
    }
    return bytes;
  }
}

export interface AgentAccess {
  tools: PagedTree<ToolRecord>;
  connectors: PagedTree<ConnectorRecord, ConnectorGrant>;
  webhooks: PagedTree<WebhookRecord>;
  disposables: vscode.Disposable[];
}

type ConnectorNode = PagedNode<ConnectorRecord, ConnectorGrant>;

export function setUpAgentAccess(deps: CommandDeps, onAuthError: (err: unknown) => void): AgentAccess {
  const client = () => deps.service.client;
  const common = pagedTreeDeps(deps, onAuthError);

  const tools = new PagedTree<ToolRecord>({
    ...common,
    what: t('tools'),
    endpoint: 'GET /v1/tools',
    viewId: ViewIds.tools,
    refreshCommand: Commands.refreshTools,
    loadMoreCommand: Commands.loadMoreTools,
    fetchPage: (params, signal) => client().listTools(params, { signal }),
    note: (shown) => (shown === 0 ? t('The service lists no tools.') : undefined),
    item: (tool) => {
      const item = new vscode.TreeItem(toolLabel(tool, t));
      item.id = `tool:${tool.id}`;
      item.description = toolDescription(tool, t);
      item.tooltip = inert(tool.description ?? '', 600);
      item.iconPath = new vscode.ThemeIcon(tool.requires_approval ? 'shield' : 'tools');
      item.contextValue = 'tool';
      item.command = { command: Commands.openTool, title: t('Open Tool'), arguments: [{ id: tool.id }] };
      return item;
    },
  });

  const connectors = new PagedTree<ConnectorRecord, ConnectorGrant>({
    ...common,
    what: t('connectors'),
    endpoint: 'GET /v1/connectors',
    viewId: ViewIds.connectors,
    refreshCommand: Commands.refreshConnectors,
    loadMoreCommand: Commands.loadMoreConnectors,
    fetchPage: (params, signal) => client().listConnectors(params, { signal }),
    note: (shown) =>
      shown === 0 ? t('No connectors are installed. Connectors are installed on the service’s website.') : undefined,
    item: (connector) => {
      const item = new vscode.TreeItem(
        connectorLabel(connector, t),
        connector.grants.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
      );
      item.id = `connector:${connector.id}`;
      item.description = connectorDescription(connector);
      item.tooltip = inert(`${connector.kind ?? ''} ${connector.id}`, 200);
      item.iconPath = new vscode.ThemeIcon(connector.status === 'revoked' ? 'debug-disconnect' : 'plug');
      item.contextValue = connector.status === 'revoked' ? 'connector revoked' : 'connector';
      return item;
    },
    children: (connector) => connector.grants,
    childItem: (connector, grant) => {
      const item = new vscode.TreeItem(grantLabel(grant, t));
      item.id = `grant:${connector.id}:${grant.id}`;
      item.description = inert(grant.resource ?? '', 120);
      item.iconPath = new vscode.ThemeIcon('key');
      item.contextValue = 'grant';
      return item;
    },
  });

  const webhooks = new PagedTree<WebhookRecord>({
    ...common,
    what: t('webhooks'),
    endpoint: 'GET /v1/webhooks',
    viewId: ViewIds.webhooks,
    refreshCommand: Commands.refreshWebhooks,
    loadMoreCommand: Commands.loadMoreWebhooks,
    fetchPage: (params, signal) => client().listWebhooks(params, { signal }),
    note: (shown) =>
      shown === 0
        ? t('No webhooks yet. Create one to have the service call your endpoint when a run ends.')
        : undefined,
    item: (webhook) => {
      const item = new vscode.TreeItem(webhookLabel(webhook, t));
      item.id = `webhook:${webhook.id}`;
      item.description = webhookDescription(webhook);
      item.tooltip = inert(webhook.id, 200);
      item.iconPath = new vscode.ThemeIcon('broadcast');
      item.contextValue = 'webhook';
      return item;
    },
  });

  const documents = new ToolDocuments(deps);

  /**
   * `{ id }` (a Tools row), or a tool by name: `{ name }` (the run panel's approval card) or a
   * Needs You row (`{ kind: 'approval', approval: { tool } }`), looked up in the registry.
   */
  const openTool = async (arg?: unknown): Promise<void> => {
    const name = toolNameOf(arg);
    const approvalRow = (arg as { kind?: unknown } | undefined)?.kind === 'approval';
    const id = name !== undefined ? await toolIdByName(name) : approvalRow ? undefined : recordId(arg, 'id');
    if (!id) {
      throw new UserFacingError(
        approvalRow
          ? t('This approval names no tool, so there is no description to open.')
          : t('Select a tool in the Tools view first.'),
      );
    }
    await vscode.window.showTextDocument(toolUri(id), { preview: true });
  };

  const toolIdByName = async (name: string): Promise<string> => {
    let page;
    try {
      page = await client().listTools({ query: name, limit: 50 });
    } catch (err) {
      if (isApiError(err, 'not_supported')) {
        throw new UserFacingError(t('This service does not offer tools.'));
      }
      throw err;
    }
    const tool = page.data.find((candidate) => candidate.name === name);
    if (!tool) {
      throw new UserFacingError(t('The service lists no tool named {0}.', inert(name, 200)));
    }
    return tool.id;
  };

  /** The hook for a run panel's tool.called row: `{ invocationId }`. */
  const openInvocation = async (arg?: unknown): Promise<void> => {
    const id = recordId(arg, 'invocationId');
    if (!id) {
      throw new UserFacingError(t('This tool call has no invocation record.'));
    }
    await vscode.window.showTextDocument(invocationUri(id), { preview: true });
  };

  const searchTools = (): Promise<void> =>
    showSearchPick(deps, {
      title: t('Search Tools'),
      placeholder: t('Type to search the service’s tools'),
      search: async (query, signal) => {
        const page = await client().listTools({ query, limit: TOOL_SEARCH_RESULTS }, { signal });
        return [
          ...page.data.map((tool) => ({
            id: tool.id,
            label: toolLabel(tool, t),
            description: toolDescription(tool, t),
          })),
          ...overflowRows(page, TOOL_SEARCH_RESULTS),
        ];
      },
      noMatch: () => t('No tool matches.'),
      unsupported: t('This service does not offer tools.'),
      open: (id) => openTool({ id }),
      openName: 'Open tool',
    });

  /** Revokes one grant (a grant row) or the whole connector (a connector row), after asking. */
  const revoke = async (wholeConnector: boolean, arg?: unknown): Promise<ConnectorRecord | undefined> => {
    const node = arg as ConnectorNode | { connectorId?: unknown; grantId?: unknown; confirm?: unknown } | undefined;
    let connector: ConnectorRecord | undefined;
    let grant: ConnectorGrant | undefined;
    if (node && 'kind' in node && node.kind === 'child') {
      connector = node.parent;
      grant = wholeConnector ? undefined : node.child;
    } else if (node && 'kind' in node && node.kind === 'record') {
      connector = node.record;
    } else if (node && typeof (node as { connectorId?: unknown }).connectorId === 'string') {
      connector = await client().getConnector((node as { connectorId: string }).connectorId);
      const grantId = (node as { grantId?: unknown }).grantId;
      if (!wholeConnector) {
        grant = connector.grants.find((g) => g.id === grantId);
      }
    }
    if (!connector) {
      throw new UserFacingError(t('Select a connector or one of its grants in the Connectors view first.'));
    }
    if (!wholeConnector && !grant) {
      throw new UserFacingError(t('Select a grant of a connector first.'));
    }
    const skip = questionSkipped(deps.trustedAutomation, node);
    if (!skip) {
      const action = wholeConnector ? t('Revoke Connector') : t('Revoke Grant');
      const question = wholeConnector
        ? t('Revoke this connector? The agent can no longer reach anything through it.')
        : t('Revoke this grant? The agent loses this access.');
      if ((await askModal('warn', question, revokeLines(connector, grant, t), action)) !== action) {
        return undefined;
      }
    }
    const updated = grant
      ? await client().removeGrant(connector.id, grant.id)
      : await client().revokeConnector(connector.id);
    connectors.upsert(updated);
    return updated;
  };

  const createWebhook = async (args?: { url?: unknown; events?: unknown }): Promise<WebhookRecord | undefined> => {
    if (!(await deps.ensureSignedIn())) {
      return undefined;
    }
    const automated = deps.trustedAutomation && typeof args?.url === 'string' && Array.isArray(args.events);
    let url: string | undefined;
    let events: string[] | undefined;
    if (automated) {
      url = args?.url as string;
      events = (args?.events as unknown[]).filter((e): e is string => typeof e === 'string');
    } else {
      url = await vscode.window.showInputBox({
        title: t('Create Webhook'),
        prompt: t('The https URL the service calls'),
        placeHolder: 'https://example.com/hooks/agent',
        ignoreFocusOut: true,
        validateInput: (value) => webhookUrlProblem(value, t),
      });
      if (url === undefined) {
        return undefined;
      }
      const picked = await vscode.window.showQuickPick(
        WEBHOOK_EVENT_NAMES.map((name) => ({
          label: name,
          description: name === '*' ? t('every event') : undefined,
          picked: name === 'run.completed' || name === 'run.failed',
        })),
        { title: t('Create Webhook: events'), canPickMany: true, ignoreFocusOut: true },
      );
      if (!picked || picked.length === 0) {
        return undefined;
      }
      events = picked.map((p) => p.label);
    }
    const problem = webhookUrlProblem(url, t);
    if (problem) {
      throw new UserFacingError(problem);
    }
    const created = await client().createWebhook({ url: url.trim(), events: events ?? [] });
    webhooks.upsert(created.webhook);
    // The secret: shown here once, copied on request, then dropped (never stored, never logged).
    const secret = created.secret;
    if (secret && !automated) {
      const copy = t('Copy Secret');
      const choice = await askModal(
        'info',
        t(
          'Webhook created. Its signing secret is shown only now; copy it to verify the Agent-Runtime-Signature of each delivery.',
        ),
        [secret],
        copy,
      );
      if (choice === copy) {
        await vscode.env.clipboard.writeText(secret);
      }
    }
    return created.webhook;
  };

  const webhookOf = (arg: unknown): WebhookRecord | { id: string } => {
    const node = arg as PagedNode<WebhookRecord> | { id?: unknown } | undefined;
    if (node && 'kind' in node && node.kind === 'record') {
      return node.record;
    }
    if (node && typeof (node as { id?: unknown }).id === 'string') {
      return { id: (node as { id: string }).id };
    }
    throw new UserFacingError(t('Select a webhook in the Webhooks view first.'));
  };

  const testWebhook = async (arg?: unknown): Promise<string> => {
    const webhook = webhookOf(arg);
    const delivery = await client().testWebhook(webhook.id);
    const sentence = deliverySentence(delivery, t);
    if (delivery.status_code !== undefined && delivery.status_code < 300) {
      void notify.info(sentence);
    } else {
      void notify.warn(sentence);
    }
    return sentence;
  };

  const deleteWebhook = async (arg?: unknown): Promise<boolean> => {
    const webhook = webhookOf(arg);
    const skip = questionSkipped(deps.trustedAutomation, arg);
    if (!skip) {
      const del = t('Delete');
      const record = 'events' in webhook ? webhook : undefined;
      const lines = record ? [webhookLabel(record, t), webhookDescription(record)] : [inert(webhook.id)];
      if ((await askModal('warn', t('Delete this webhook? The service stops calling it.'), lines, del)) !== del) {
        return false;
      }
    }
    await client().deleteWebhook(webhook.id);
    webhooks.remove(webhook.id);
    return true;
  };

  const guard = deps.guard;
  return {
    tools,
    connectors,
    webhooks,
    disposables: [
      ...registerPagedTree(tools, deps),
      ...registerPagedTree(connectors, deps),
      ...registerPagedTree(webhooks, deps),
      documents,
      vscode.workspace.registerFileSystemProvider(TOOLS_SCHEME, documents, { isReadonly: true, isCaseSensitive: true }),
      vscode.commands.registerCommand(Commands.searchTools, guard('Search tools', searchTools)),
      vscode.commands.registerCommand(Commands.openTool, guard('Open tool', openTool)),
      vscode.commands.registerCommand(Commands.openToolInvocation, guard('Open tool call', openInvocation)),
      vscode.commands.registerCommand(
        Commands.revokeGrant,
        guard('Revoke grant', (arg?: unknown) => revoke(false, arg)),
      ),
      vscode.commands.registerCommand(
        Commands.revokeConnector,
        guard('Revoke connector', (arg?: unknown) => revoke(true, arg)),
      ),
      vscode.commands.registerCommand(Commands.createWebhook, guard('Create webhook', createWebhook)),
      vscode.commands.registerCommand(Commands.testWebhook, guard('Send test delivery', testWebhook)),
      vscode.commands.registerCommand(Commands.deleteWebhook, guard('Delete webhook', deleteWebhook)),
    ],
  };
}

const MAX_TOOL_NAME = 200;

/** A tool named rather than given by id: `{ name }` or an approval row (matched by shape). */
function toolNameOf(arg: unknown): string | undefined {
  if (typeof arg !== 'object' || arg === null) {
    return undefined;
  }
  const node = arg as { kind?: unknown; approval?: { tool?: unknown }; name?: unknown };
  const name = node.kind === 'approval' ? node.approval?.tool : node.name;
  return typeof name === 'string' && name !== '' && name.length <= MAX_TOOL_NAME ? name : undefined;
}

function recordId(arg: unknown, key: string): string | undefined {
  if (typeof arg === 'string') {
    return arg;
  }
  if (typeof arg !== 'object' || arg === null) {
    return undefined;
  }
  const value = (arg as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}
