// Registers the language model tools with VS Code at activation (vscode.lm.registerTool; the
// manifest's contributes.languageModelTools names them), but the tools themselves (toolHandlers.ts
// with toolSpecs.ts and toolResult.ts) load at the first prepareInvocation or invoke. In the
// bundle, esbuild.js (LAZY_FILES) resolves the require below to a guard that loads dist/tools.js,
// a bundle that takes every module it shares with extension.js from extension.js's `__shared`
// (one class, one singleton); under tsc it is the plain module.
import * as vscode from 'vscode';
import type * as ToolHandlers from './toolHandlers';
import { TOOL_NAMES } from './toolNames';
import type { ToolContext } from './toolSpecs';

export interface RegisteredTools {
  disposables: vscode.Disposable[];
  /** Each tool as registered, by name (for the extension-host tests). */
  tools: ReadonlyMap<string, vscode.LanguageModelTool<unknown>>;
}

export function registerTools(ctx: ToolContext, log: vscode.LogOutputChannel): RegisteredTools {
  let handlers: ReadonlyMap<string, vscode.LanguageModelTool<unknown>> | undefined;
  const handlerOf = (name: string): vscode.LanguageModelTool<unknown> => {
    try {
      // Synchronous on purpose: the file is local, and the call then runs as it did before.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      handlers ??= (require('./toolHandlers') as typeof ToolHandlers).createToolHandlers(ctx, log);
    } catch (err) {
      // A broken install: VS Code shows the rejection (the message says to reinstall).
      log.error(`Tool ${name}: ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    }
    const handler = handlers.get(name);
    if (!handler) {
      throw new Error(vscode.l10n.t('No tool {0} in this version of the extension.', name));
    }
    return handler;
  };
  // async: a broken tools.js rejects the call instead of throwing into VS Code's caller.
  const tools = new Map(
    TOOL_NAMES.map((name) => {
      const tool: vscode.LanguageModelTool<unknown> = {
        prepareInvocation: async (options, token) => handlerOf(name).prepareInvocation?.(options, token),
        invoke: async (options, token) => handlerOf(name).invoke(options, token),
      };
      return [name, tool] as const;
    }),
  );
  return { disposables: [...tools].map(([name, tool]) => vscode.lm.registerTool(name, tool)), tools };
}
