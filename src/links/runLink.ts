// Links to a run and, optionally, one of its events: `<scheme>://agent-runtime.agent-runtime/run/<run_id>#<sequence>`.
// Building and checking them is pure (no vscode): the URI handler, "Go to…" and the copy command
// all go through checkRunLink, so a link is accepted or refused by one rule.
import { isRunId } from '../runEvents/ids';

/** `<publisher>.<name>` from package.json: the authority the editor routes our links by. */
export const EXTENSION_ID = 'agent-runtime.agent-runtime';

/** Longer input is no link of ours; refusing it early keeps hostile text out of parsers and messages. */
export const MAX_LINK_CHARS = 2048;

/** A URI taken apart the way vscode.Uri does (path and fragment already percent-decoded). */
export interface RunLinkParts {
  authority: string;
  path: string;
  fragment: string;
}

export interface RunLinkTarget {
  runId: string;
  /** The event to show; undefined links to the run as a whole. */
  sequence?: number;
}

export type RunLinkProblem =
  /** Another extension's or host's link (or one with user info or a port). */
  | 'notOurs'
  /** Ours, but not /run/<id>. */
  | 'notARunLink'
  | 'badRunId'
  | 'badSequence'
  | 'tooLong';

export type RunLinkResult = { ok: true; target: RunLinkTarget } | { ok: false; problem: RunLinkProblem };

const SEQUENCE = /^[1-9][0-9]{0,15}$/;

/** A positive safe integer written plainly ("007", "1e3", "-1", "1.0" are not sequences). */
export function parseSequence(text: string): number | undefined {
  if (!SEQUENCE.test(text)) {
    return undefined;
  }
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

export function isSequence(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/**
 * Checks a link that reached us. The query is ignored: the editor may add its own (`windowId=`)
 * and nothing in it is used. A trailing slash is tolerated; anything else in the path is not.
 */
export function checkRunLink(parts: RunLinkParts): RunLinkResult {
  if (parts.authority.length + parts.path.length + parts.fragment.length > MAX_LINK_CHARS) {
    return fail('tooLong');
  }
  if (parts.authority.toLowerCase() !== EXTENSION_ID) {
    return fail('notOurs');
  }
  const match = /^\/run\/([^/]*)\/?$/.exec(parts.path);
  if (!match) {
    return fail('notARunLink');
  }
  const runId = match[1];
  if (!isRunId(runId)) {
    return fail('badRunId');
  }
  if (parts.fragment === '') {
    return { ok: true, target: { runId } };
  }
  const sequence = parseSequence(parts.fragment);
  return sequence === undefined ? fail('badSequence') : { ok: true, target: { runId, sequence } };
}

/** The link's path and fragment (the caller adds the scheme: the editor's own, vscode.env.uriScheme). */
export function runLinkParts(target: RunLinkTarget): RunLinkParts {
  if (!isRunId(target.runId)) {
    throw new Error(`Not a run id: ${JSON.stringify(target.runId).slice(0, 80)}`);
  }
  if (target.sequence !== undefined && !isSequence(target.sequence)) {
    throw new Error(`Not a sequence: ${String(target.sequence)}`);
  }
  return {
    authority: EXTENSION_ID,
    path: `/run/${target.runId}`,
    fragment: target.sequence === undefined ? '' : String(target.sequence),
  };
}

/** The whole link as text for `scheme` (e.g. `vscode`, `vscode-insiders`, code-server's `code-oss`). */
export function formatRunLink(scheme: string, target: RunLinkTarget): string {
  if (!/^[a-z][a-z0-9+.-]*$/i.test(scheme)) {
    throw new Error(`Not a URI scheme: ${JSON.stringify(scheme).slice(0, 40)}`);
  }
  const parts = runLinkParts(target);
  return `${scheme}://${parts.authority}${parts.path}${parts.fragment ? `#${parts.fragment}` : ''}`;
}

/** The names VS Code's web workbench uses when it turns an editor link into an https callback. */
const CALLBACK_KEYS = { authority: 'vscode-authority', path: 'vscode-path', fragment: 'vscode-fragment' } as const;

/**
 * A link pasted as text: the editor's own form (any scheme: the desktop's `vscode`, Insiders',
 * code-server's), or the https callback that `asExternalUri` makes of it in a browser-hosted
 * editor (`https://host/callback?vscode-authority=…&vscode-path=…&vscode-fragment=…`).
 * Undefined when the text is no URL at all (then it may be a bare id).
 */
export function parseRunLinkText(text: string): RunLinkResult | undefined {
  if (text.length > MAX_LINK_CHARS) {
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? fail('tooLong') : undefined;
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail('notARunLink');
  }
  if (url.protocol === 'https:' || url.protocol === 'http:') {
    let params = url.searchParams;
    // A callback copied from an editor that encoded its query as a whole (`?vscode-reqid%3D1%26…`).
    if (params.get(CALLBACK_KEYS.authority) === null && /%3D/i.test(url.search)) {
      try {
        params = new URLSearchParams(decodeURIComponent(url.search.slice(1)));
      } catch {
        return fail('notOurs');
      }
    }
    const authority = params.get(CALLBACK_KEYS.authority);
    const path = params.get(CALLBACK_KEYS.path);
    if (authority === null || path === null) {
      return fail('notOurs');
    }
    return checkRunLink({ authority, path, fragment: params.get(CALLBACK_KEYS.fragment) ?? '' });
  }
  // User info or a port would make "our" authority a different one.
  if (url.username !== '' || url.password !== '' || url.port !== '') {
    return fail('notOurs');
  }
  const path = decode(url.pathname);
  const fragment = decode(url.hash.replace(/^#/, ''));
  if (path === undefined) {
    return fail('badRunId');
  }
  if (fragment === undefined) {
    return fail('badSequence');
  }
  return checkRunLink({ authority: url.hostname, path, fragment });
}

/** Percent-decoded as vscode.Uri does it, so a pasted link and a handled one read alike. */
function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function fail(problem: RunLinkProblem): RunLinkResult {
  return { ok: false, problem };
}
