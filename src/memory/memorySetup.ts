// Memory in the editor: the file system of entries, the Memory view, Search Memory...,
// Remember Selection, Delete (asks first), and the conflict compare. One setup for extension.ts.
import * as vscode from 'vscode';
import type { MemoryRecord } from '../api/resourceTypes';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { questionSkipped } from '../commandSupport/questionSkip';
import { overflowRows, showSearchPick } from '../commandSupport/searchPick';
import { Commands } from '../common/ids';
import { inert } from '../common/inertText';
import { askModal, notify } from '../common/notify';
import type { Translate } from '../common/translate';
import { pagedTreeDeps, registerPagedTree } from '../views/pagedTree';
import { MemoryConflicts } from './memoryConflict';
import { EditorMemoryConsent } from './memoryConsent';
import { MemoryFileSystem } from './memoryFileSystem';
import { memoryDescription, memoryLabel, tooLargeMessage } from './memoryText';
import { MemoryTree } from './memoryTree';
import { MEMORY_SCHEME, memoryUri, parseMemoryUri } from './memoryUris';

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

const SEARCH_RESULTS = 25;

export interface MemoryFeature {
  fs: MemoryFileSystem;
  tree: MemoryTree;
  conflicts: MemoryConflicts;
  disposables: vscode.Disposable[];
}

/** An entry named by a tree row, a memory document's URI, an id, or `{id}` (automation). */
function idOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') {
    return arg.startsWith(`${MEMORY_SCHEME}:`) ? parseMemoryUri(vscode.Uri.parse(arg))?.id : arg;
  }
  if (arg instanceof vscode.Uri) {
    return parseMemoryUri(arg)?.id;
  }
  if (typeof arg === 'object' && arg !== null) {
    const node = arg as { kind?: unknown; record?: { id?: unknown }; id?: unknown };
    if (node.kind === 'record' && typeof node.record?.id === 'string') {
      return node.record.id;
    }
    if (typeof node.id === 'string') {
      return node.id;
    }
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  return active ? parseMemoryUri(active)?.id : undefined;
}

export function setUpMemory(deps: CommandDeps, onAuthError: (err: unknown) => void): MemoryFeature {
  const client = () => deps.service.client;
  const consent = new EditorMemoryConsent();
  const fs = new MemoryFileSystem(client, consent);
  const tree = new MemoryTree({ getClient: client, ...pagedTreeDeps(deps, onAuthError) });
  const conflicts = new MemoryConflicts(fs, deps.log);

  const open = async (id: string): Promise<void> => {
    await vscode.window.showTextDocument(memoryUri(id), { preview: false });
  };

  const search = (): Promise<void> =>
    showSearchPick(deps, {
      title: t('Search Memory'),
      placeholder: t('Type to search what the agent remembers'),
      search: async (query, signal) => {
        const page = await client().listMemory({ query: query.trim() || undefined, limit: SEARCH_RESULTS }, { signal });
        const seen = new Set<string>();
        return [
          ...page.data
            .filter((r) => !seen.has(r.id) && seen.add(r.id))
            .map((r) => ({
              id: r.id,
              label: memoryLabel(r, t),
              description: memoryDescription(r),
              detail: r.score !== undefined ? t('Relevance {0}%', Math.round(r.score * 100)) : undefined,
            })),
          ...overflowRows(page, SEARCH_RESULTS),
        ];
      },
      noMatch: (query) => (query.trim() ? t('No memory matches.') : t('No memories yet.')),
      unsupported: t('This service does not offer memory.'),
      open,
      openName: 'Open memory',
    });

  const rememberSelection = async (args?: { text?: string; tags?: string[] }): Promise<MemoryRecord | undefined> => {
    const automated = deps.trustedAutomation && typeof args?.text === 'string';
    const editor = vscode.window.activeTextEditor;
    const text = automated
      ? (args?.text as string)
      : editor
        ? editor.selections
            .map((s) => editor.document.getText(s))
            .filter((s) => s !== '')
            .join('\n')
        : '';
    if (text.trim() === '') {
      throw new UserFacingError(t('Select the text to remember first.'));
    }
    const tooLarge = tooLargeMessage(text, t);
    if (tooLarge) {
      throw new UserFacingError(tooLarge);
    }
    if (!(await deps.ensureSignedIn())) {
      return undefined;
    }
    let tags: string[] = [];
    if (automated) {
      tags = Array.isArray(args?.tags) ? args.tags.filter((x): x is string => typeof x === 'string') : [];
    } else {
      const typed = await vscode.window.showInputBox({
        title: t('Remember Selection'),
        prompt: t('Tags for this memory, separated by commas (optional)'),
        ignoreFocusOut: true,
      });
      if (typed === undefined) {
        return undefined;
      }
      tags = typed
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')
        .slice(0, 20);
    }
    const created = await client().createMemory({ content: text, tags });
    fs.remember(created);
    tree.upsert(created);
    if (!automated) {
      const openLabel = t('Open');
      void notify
        .info(t('Remembered: {0}', memoryLabel(created, t)), openLabel)
        .then((choice) => (choice === openLabel ? open(created.id) : undefined));
    }
    return created;
  };

  const remove = async (arg?: unknown): Promise<boolean> => {
    const id = idOf(arg);
    if (!id) {
      throw new UserFacingError(t('Select a memory in the Memory view first.'));
    }
    const record =
      (arg as { record?: MemoryRecord } | undefined)?.record ?? fs.knownRecord(id) ?? (await client().getMemory(id));
    const skipConfirm = questionSkipped(deps.trustedAutomation, arg);
    if (!skipConfirm) {
      const del = t('Delete');
      const lines = [memoryLabel(record, t), memoryDescription(record), record.id].filter((l) => l !== '');
      if ((await askModal('warn', t('Delete this memory? The agent will no longer know it.'), lines, del)) !== del) {
        return false;
      }
    }
    await client().deleteMemory(id);
    fs.forget(id);
    tree.remove(id);
    return true;
  };

  const filter = async (): Promise<void> => {
    const tags = new Set<string>();
    const projects = new Set<string>();
    for (const r of tree.entries) {
      r.tags.forEach((tag) => tags.add(tag));
      if (r.project_id) {
        projects.add(r.project_id);
      }
    }
    type Choice = vscode.QuickPickItem & { value?: { tag?: string; project_id?: string } };
    const items: Choice[] = [
      { label: t('All memories'), value: {} },
      ...[...tags].slice(0, 200).map((tag) => ({ label: inert(`#${tag}`, 80), description: t('tag'), value: { tag } })),
      ...[...projects]
        .slice(0, 200)
        .map((project_id) => ({ label: inert(project_id, 80), description: t('project'), value: { project_id } })),
    ];
    const chosen = await vscode.window.showQuickPick(items, { title: t('Filter Memory by Tag or Project') });
    if (chosen?.value) {
      tree.setFilter(chosen.value);
    }
  };

  const guard = deps.guard;
  const disposables: vscode.Disposable[] = [
    fs,
    ...registerPagedTree(tree, deps),
    conflicts,
    vscode.workspace.registerFileSystemProvider(MEMORY_SCHEME, fs, { isCaseSensitive: true }),
    fs.onDidSave((record) => tree.upsert(record)),
    fs.onDidDelete((id) => tree.remove(id)),
    vscode.commands.registerCommand(Commands.searchMemory, guard('Search memory', search)),
    vscode.commands.registerCommand(Commands.rememberSelection, guard('Remember selection', rememberSelection)),
    vscode.commands.registerCommand(Commands.deleteMemory, guard('Delete memory', remove)),
    vscode.commands.registerCommand(Commands.filterMemory, guard('Filter memory', filter)),
    vscode.commands.registerCommand(
      Commands.openMemory,
      guard('Open memory', async (arg?: unknown) => {
        const id = idOf(arg);
        if (id) {
          await open(id);
        }
      }),
    ),
  ];
  return { fs, tree, conflicts, disposables };
}
