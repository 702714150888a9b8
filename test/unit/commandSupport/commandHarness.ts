// What the command tests share: the editor's prompts recorded and answered (modal dialogs,
// notifications, input boxes, text documents) on the shared `vscode` stub, patched only while a
// test file runs, and CommandDeps around a real client of the reference runtime.
import type * as vscode from 'vscode';
import type { ApiClient } from '../../../src/api/client';
import type { CommandDeps } from '../../../src/commandSupport/commandDeps';
import * as stub from '../views/vscodeStub';

type Handler = (...args: unknown[]) => Promise<unknown>;

export interface Modal {
  message: string;
  detail?: string;
  items: string[];
}

export interface Notice {
  severity: 'error' | 'warn' | 'info';
  message: string;
  items: string[];
}

export interface Prompts {
  readonly handlers: Map<string, Handler>;
  readonly modals: Modal[];
  readonly notices: Notice[];
  readonly inputs: string[];
  /** Texts of the documents opened (the whole call of a long approval). */
  readonly documents: string[];
  readonly executed: Array<[string, unknown[]]>;
  /** The item a modal answers (undefined: Cancel / Escape). */
  answerModal: (modal: Modal) => string | undefined;
  /** The item a notification answers (undefined: closed). */
  answerNotice: (notice: Notice) => string | undefined;
  /** What an input box answers (undefined: Escape). */
  answerInput: (prompt: string) => string | undefined;
  reset(): void;
  /** Patches the stub; returns what puts it back. */
  install(): () => void;
}

/** Sets each patch's properties on its object; returns what puts the objects back as they were. */
export function patchObjects(patches: ReadonlyArray<[object, Record<string, unknown>]>): () => void {
  const undo = patches.map(([target, props]) => {
    const had = Object.fromEntries(
      Object.keys(props)
        .filter((key) => key in target)
        .map((key) => [key, (target as Record<string, unknown>)[key]]),
    );
    Object.assign(target, props);
    return () => {
      for (const key of Object.keys(props)) {
        if (!(key in had)) {
          delete (target as Record<string, unknown>)[key];
        }
      }
      Object.assign(target, had);
    };
  });
  return () => undo.forEach((u) => u());
}

export function prompts(): Prompts {
  const providers = new Map<string, { provideTextDocumentContent(uri: unknown): string }>();
  const p: Prompts = {
    handlers: new Map(),
    modals: [],
    notices: [],
    inputs: [],
    documents: [],
    executed: [],
    answerModal: () => undefined,
    answerNotice: () => undefined,
    answerInput: () => undefined,
    reset() {
      p.modals.length = 0;
      p.notices.length = 0;
      p.inputs.length = 0;
      p.documents.length = 0;
      p.executed.length = 0;
      p.answerModal = () => undefined;
      p.answerNotice = () => undefined;
      p.answerInput = () => undefined;
    },
    install() {
      const show =
        (severity: Notice['severity']) =>
        async (message: string, options?: unknown, ...rest: string[]) => {
          const isOptions = typeof options === 'object' && options !== null;
          const items = isOptions ? rest : [options as string, ...rest].filter((i) => i !== undefined);
          if (isOptions && (options as vscode.MessageOptions).modal) {
            const modal = { message, detail: (options as vscode.MessageOptions).detail, items };
            p.modals.push(modal);
            return p.answerModal(modal);
          }
          const notice = { severity, message, items };
          p.notices.push(notice);
          return p.answerNotice(notice);
        };
      const patches: Array<[object, Record<string, unknown>]> = [
        [
          stub.commands,
          {
            registerCommand: (id: string, handler: Handler) => {
              p.handlers.set(id, handler);
              return { dispose: () => p.handlers.delete(id) };
            },
            executeCommand: async (command: string, ...args: unknown[]) => void p.executed.push([command, args]),
          },
        ],
        [
          stub.window,
          {
            showWarningMessage: show('warn'),
            showInformationMessage: show('info'),
            showErrorMessage: show('error'),
            showInputBox: async (options: { title?: string; prompt?: string }) => {
              const prompt = `${options.title ?? ''}: ${options.prompt ?? ''}`;
              p.inputs.push(prompt);
              return p.answerInput(prompt);
            },
            showTextDocument: async (doc: { getText(): string }) => void p.documents.push(doc.getText()),
          },
        ],
        [
          stub.workspace,
          {
            registerTextDocumentContentProvider: (
              scheme: string,
              provider: { provideTextDocumentContent(uri: unknown): string },
            ) => {
              providers.set(scheme, provider);
              return { dispose: () => providers.delete(scheme) };
            },
            openTextDocument: async (uri: { scheme: string }) => {
              const text = providers.get(uri.scheme)?.provideTextDocumentContent(uri) ?? '';
              return { uri, getText: () => text };
            },
          },
        ],
      ];
      return patchObjects(patches);
    },
  };
  return p;
}

/** Deps for the steering and approval commands: a real client, errors collected instead of shown. */
export function commandDeps(
  client: ApiClient,
  options: {
    trusted: () => boolean;
    errors: unknown[];
    warnings?: string[];
    /** The Tasks view's selected rows, and the active run panel's run (resolveRun). */
    selection?: () => unknown[];
    activePanel?: () => string | undefined;
  },
): CommandDeps {
  const deps = {
    service: { client },
    log: {
      info: () => undefined,
      warn: (line: string) => void options.warnings?.push(line),
      error: () => undefined,
    },
    guard:
      (_name: string, handler: (...args: unknown[]) => unknown) =>
      async (...args: unknown[]) => {
        try {
          return await handler(...args);
        } catch (err) {
          options.errors.push(err);
          return undefined;
        }
      },
    get trustedAutomation() {
      return options.trusted();
    },
    tasks: { refresh: () => undefined, followNewTask: async () => undefined },
    selection: () => options.selection?.() ?? [],
    activeRunPanel: () => options.activePanel?.(),
    // No cap configured: the commands send none (test/ext/budget.test.ts covers the caps).
    budgets: { choose: async () => ({}), askedInTests: [], noteStarted: () => undefined },
  };
  return deps as unknown as CommandDeps;
}
