// The tools of toolSpecs.ts as VS Code calls them (vscode.lm.registerTool, stable since 1.95).
// prepareInvocation gives VS Code the confirmation to show; what it showed (the plan) is kept
// until the invocation that follows, so an effect acts on exactly the files and run the person
// saw, and on nothing when they saw none. Loaded at the first tool call: the names are registered
// at activation by toolsLoader.ts, and in the bundle this file is dist/tools.js (esbuild.js
// LAZY_FILES), with toolSpecs.ts and toolResult.ts.
import * as vscode from 'vscode';
import { withAbortSignal } from '../common/abortOn';
import { toolText } from './toolResult';
import { TOOL_SPECS, type ToolContext, type ToolSpec } from './toolSpecs';

/** Plans kept for invocations that have not come (the person said no): the oldest go first. */
const MAX_PLANS = 32;

/** What prepareInvocation showed, by tool and input, until its invocation takes it. */
export class ConfirmedPlans {
  private readonly plans = new Map<string, unknown>();

  put(tool: string, input: unknown, plan: unknown): void {
    const key = keyOf(tool, input);
    this.plans.delete(key);
    if (plan === undefined) {
      return;
    }
    this.plans.set(key, plan);
    while (this.plans.size > MAX_PLANS) {
      this.plans.delete(this.plans.keys().next().value as string);
    }
  }

  take(tool: string, input: unknown): unknown {
    const key = keyOf(tool, input);
    const plan = this.plans.get(key);
    this.plans.delete(key);
    return plan;
  }
}

function keyOf(tool: string, input: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(input) ?? '';
  } catch {
    json = '';
  }
  return `${tool}\u0000${json}`;
}

function markdown(value: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(value);
  md.isTrusted = false;
  md.supportHtml = false;
  md.supportThemeIcons = false;
  return md;
}

/** The VS Code side of one spec: the same object the extension registers (the tests call it directly). */
export function toolOf(
  spec: ToolSpec,
  ctx: ToolContext,
  plans: ConfirmedPlans,
  log: vscode.LogOutputChannel,
): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation: async (options) => {
      const prepared = await spec.prepare(options.input, ctx);
      plans.put(spec.name, options.input, prepared.plan);
      return {
        invocationMessage: markdown(prepared.invocationMessage),
        confirmationMessages: prepared.confirmation && {
          title: prepared.confirmation.title,
          message: markdown(prepared.confirmation.message),
        },
      };
    },
    invoke: async (options, token) => {
      const plan = plans.take(spec.name, options.input);
      let text: string;
      try {
        text = await withAbortSignal(token, (signal) => spec.invoke(options.input, ctx, plan, signal));
      } catch (err) {
        log.error(`Tool ${spec.name} failed: ${err instanceof Error ? err.message : String(err)}`);
        text = toolText('The tool failed inside VS Code; nothing more was done.', {
          error: err instanceof Error ? err.message : String(err),
        });
      }
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
    },
  };
}

/** Every tool of TOOL_SPECS by name, as VS Code calls it; one store of confirmed plans for all. */
export function createToolHandlers(
  ctx: ToolContext,
  log: vscode.LogOutputChannel,
): ReadonlyMap<string, vscode.LanguageModelTool<unknown>> {
  const plans = new ConfirmedPlans();
  return new Map(TOOL_SPECS.map((spec) => [spec.name, toolOf(spec, ctx, plans, log)] as const));
}
