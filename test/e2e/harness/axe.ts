// axe-core, the accessibility engine, run inside a page or a webview's inner frame. The engine's
// source (node_modules/axe-core/axe.min.js) is evaluated in the frame through the DevTools
// protocol (Playwright's frame.evaluate of the source text): a webview's Content-Security-Policy
// allows only scripts with its nonce, so a <script> tag would be refused, but an evaluation
// from the debugger is not subject to the page's CSP.
import * as fs from 'node:fs';
import { type Frame } from 'playwright-core';

export type AxeImpact = 'minor' | 'moderate' | 'serious' | 'critical';

export interface AxeNode {
  /** CSS selectors of the node (one per nested frame). */
  target: string[];
  html: string;
  failureSummary?: string;
}

export interface AxeViolation {
  id: string;
  impact: AxeImpact | null;
  help: string;
  helpUrl: string;
  nodes: AxeNode[];
}

export interface AxeScope {
  /** CSS selector of the part to check; the whole document when absent. */
  include?: string;
  /** CSS selectors left out of the check. */
  exclude?: string[];
}

/** The impacts that fail a check: what keeps someone from using the page at all. */
export const BLOCKING_IMPACTS: readonly AxeImpact[] = ['serious', 'critical'];

let source: string | undefined;

function axeSource(): string {
  source ??= fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  return source;
}

/** Puts `window.axe` into the frame (once per document). */
export async function injectAxe(frame: Frame): Promise<void> {
  if (await frame.evaluate('typeof window.axe === "object" && typeof window.axe.run === "function"')) {
    return;
  }
  // The UMD bundle sets window.axe when the page has no `module`; the trailing `0` keeps the
  // script's completion value (nothing) from being serialised back.
  await frame.evaluate(`${axeSource()}\n;0`);
  if (!(await frame.evaluate('typeof window.axe === "object"'))) {
    throw new Error('axe-core did not load in the frame');
  }
}

// Only what the report needs crosses back: the nodes' HTML is cut so a long row stays one line.
const RUN_AXE = `(async (scope) => {
  const context = scope.include || scope.exclude ? { include: scope.include ? [[scope.include]] : undefined, exclude: (scope.exclude || []).map((s) => [s]) } : document;
  if (context !== document && context.include === undefined) context.include = [document];
  const results = await window.axe.run(context, { resultTypes: ['violations'] });
  return results.violations.map((v) => ({
    id: v.id, impact: v.impact || null, help: v.help, helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({ target: n.target.map(String), html: String(n.html).slice(0, 400), failureSummary: n.failureSummary })),
  }));
})`;

/** Every axe violation (all impacts) in the frame's document, or in `scope` of it. */
export async function runAxe(frame: Frame, scope: AxeScope = {}): Promise<AxeViolation[]> {
  await injectAxe(frame);
  return frame.evaluate<AxeViolation[]>(`${RUN_AXE}(${JSON.stringify(scope)})`);
}

export function blocking(violations: readonly AxeViolation[]): AxeViolation[] {
  return violations.filter((v) => v.impact !== null && BLOCKING_IMPACTS.includes(v.impact));
}

/** One paragraph per violation: id, impact, help, then each node's target. */
export function formatViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map((v) => {
      const nodes = v.nodes.map((n) => `    - ${n.target.join(' >>> ')}  ${n.html}`).join('\n');
      return `  [${v.impact ?? 'no impact'}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}`;
    })
    .join('\n');
}

/**
 * Runs axe in the frame and throws, listing them, when it finds violations of impact serious or
 * critical. Returns every violation (the lesser ones too) so a caller can log them.
 */
export async function assertNoBlockingViolations(
  frame: Frame,
  label: string,
  scope: AxeScope = {},
): Promise<AxeViolation[]> {
  const violations = await runAxe(frame, scope);
  const bad = blocking(violations);
  if (bad.length > 0) {
    throw new Error(
      `axe-core found ${bad.length} serious or critical violation(s) in ${label}:\n${formatViolations(bad)}`,
    );
  }
  return violations;
}
