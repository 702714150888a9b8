// A stand-in for the few parts of the `vscode` module the sidebar providers touch, so their
// logic runs in plain mocha against the reference runtime. Importing this file makes
// `require('vscode')` resolve here; the real editor is covered by the lead's test/ext suites.
import Module from 'node:module';

type Listener<T> = (value: T) => void;

export class EventEmitter<T> {
  private listeners: Array<Listener<T>> = [];
  readonly event = (listener: Listener<T>): { dispose(): void } => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(value: T): void {
    for (const l of [...this.listeners]) {
      l(value);
    }
  }
  dispose(): void {
    this.listeners = [];
  }
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: unknown;
  iconPath?: unknown;
  contextValue?: string;
  command?: unknown;
  resourceUri?: unknown;
  accessibilityInformation?: unknown;
  constructor(
    public label: string,
    public collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon {
  static readonly File = new ThemeIcon('file');
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class MarkdownString {
  isTrusted = false;
  supportHtml = false;
  constructor(readonly value: string) {}
}

/** A class, so `x instanceof vscode.Uri` works; what it makes are plain look-alikes. */
export class Uri {
  static from(parts: { scheme: string; path: string }) {
    return { ...parts, toString: () => `${parts.scheme}:${parts.path}` };
  }
  static parse(text: string) {
    return { toString: () => text };
  }
}

export const l10n = {
  t: (message: string, ...args: unknown[]): string =>
    message.replace(/\{(\d+)\}/g, (whole, i: string) =>
      args[Number(i)] === undefined ? whole : String(args[Number(i)]),
    ),
};

export const env = { language: 'en' };

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

/** Holds nothing: a test that applies edits patches workspace.applyEdit. */
export class WorkspaceEdit {
  replace(): void {}
}

/** Empty: a test patches in what its code calls (text documents, content providers). */
export const workspace = {};

export enum FileType {
  File = 1,
  Directory = 2,
}

export enum FileChangeType {
  Changed = 1,
  Created = 2,
  Deleted = 3,
}

export const FilePermission = { Readonly: 1 };

export class Disposable {
  constructor(private readonly onDispose: () => void) {}
  dispose(): void {
    this.onDispose();
  }
}

/** The file system provider's errors: an Error with the code VS Code gives it. */
export class FileSystemError extends Error {
  constructor(
    message: unknown,
    readonly code: string = 'Unknown',
  ) {
    super(typeof message === 'string' ? message : String(message));
  }
  static FileNotFound = (what?: unknown) => new FileSystemError(what, 'FileNotFound');
  static NoPermissions = (what?: unknown) => new FileSystemError(what, 'NoPermissions');
  static Unavailable = (what?: unknown) => new FileSystemError(what, 'Unavailable');
}

/** View ids that showed a progress bar, in order. */
export const progressViews: string[] = [];
/** setContext calls, in order. */
export const contextWrites: Array<[string, unknown]> = [];

export const window = {
  withProgress: async <R>(options: { location: { viewId: string } }, task: () => Promise<R>): Promise<R> => {
    progressViews.push(options.location.viewId);
    return task();
  },
};

export const commands = {
  executeCommand: async (command: string, ...args: unknown[]): Promise<void> => {
    if (command === 'setContext') {
      contextWrites.push([String(args[0]), args[1]]);
    }
  },
};

// Only the request for 'vscode' is redirected; every other module resolves as usual.
const loader = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
const resolve = loader._resolveFilename;
loader._resolveFilename = function (request: string, ...rest: unknown[]): string {
  return request === 'vscode' ? __filename : resolve.call(this, request, ...rest);
};
