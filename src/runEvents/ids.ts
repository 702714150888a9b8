// Id checks for ids that reach a URL path or a message: what the panel, links and commands accept.
// Pure: no vscode, no Node, no DOM.

const RUN_ID = /^run_[A-Za-z0-9_-]{1,200}$/;
/** An approval id as a message may name it: no path or query characters. */
export const APPROVAL_ID = /^[A-Za-z0-9_-]{1,200}$/;

/** A run id as the panel accepts it: the spec's `run_` prefix, nothing that could break a URL path. */
export function isRunId(value: unknown): value is string {
  return typeof value === 'string' && RUN_ID.test(value);
}
