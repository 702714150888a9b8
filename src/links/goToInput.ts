// What "Go to…" makes of the text a person pasted or typed: which kind of record it names (by the
// spec's id prefixes, the assumed `file_`), or a run link, or why it is neither. Pure (no
// vscode): the quick pick shows the problem as it is typed, and mocha tests every rule.
import { MAX_LINK_CHARS, parseRunLinkText, type RunLinkProblem } from './runLink';

export type GoToKind = 'task' | 'run' | 'file' | 'artifact';

export type GoToTarget =
  | { kind: 'task' | 'file'; id: string }
  | { kind: 'run'; id: string; sequence?: number }
  /** An artifact is read through its run (the API has no GET /v1/artifacts/{id}): `runId` when given with it. */
  | { kind: 'artifact'; id: string; runId?: string };

export type GoToProblem = 'empty' | 'tooLong' | 'unknownPrefix' | 'badCharacters' | RunLinkProblem;

export type GoToParse = { ok: true; target: GoToTarget } | { ok: false; problem: GoToProblem };

const PREFIXES: ReadonlyArray<[string, GoToKind]> = [
  ['task_', 'task'],
  ['run_', 'run'],
  ['file_', 'file'],
  ['art_', 'artifact'],
];

/**
 * The characters an id of ours may have after its prefix. Opaque to the spec, but every id we
 * have seen is of these; the run panel's isRunId allows the same. Anything else (`/`, `%`, `.`,
 * spaces) could not be one request path segment anyway (src/api/pathSegment.ts).
 */
const ID_BODY = /^[A-Za-z0-9_-]{1,200}$/;
/** What people paste around an id: quotes, backticks, brackets, a trailing comma or full stop. */
const WRAPPING = /^[\s"'`<([{]+|[\s"'`>)\]},.;:]+$/g;

/** The kind an id's prefix names, or undefined. */
export function kindOfId(id: string): GoToKind | undefined {
  return PREFIXES.find(([prefix]) => id.startsWith(prefix))?.[1];
}

/** A well-formed id of any kind we know (prefix and characters). */
export function isKnownId(id: string, kind?: GoToKind): boolean {
  const found = PREFIXES.find(([prefix]) => id.startsWith(prefix));
  return found !== undefined && (kind === undefined || found[1] === kind) && ID_BODY.test(id.slice(found[0].length));
}

export function parseGoToInput(raw: string): GoToParse {
  if (raw.length > MAX_LINK_CHARS) {
    return fail('tooLong');
  }
  const text = raw.replace(WRAPPING, '');
  if (text === '') {
    return fail('empty');
  }
  const link = parseRunLinkText(text);
  if (link) {
    return link.ok
      ? { ok: true, target: { kind: 'run', id: link.target.runId, sequence: link.target.sequence } }
      : link;
  }
  // "run_1/art_2" or "run_1 art_2": an artifact with the run it belongs to.
  const pair = /^(run_[^\s/]+)(?:\s+|\/)(art_\S+)$/.exec(text);
  if (pair) {
    if (!isKnownId(pair[1], 'run') || !isKnownId(pair[2], 'artifact')) {
      return fail('badCharacters');
    }
    return { ok: true, target: { kind: 'artifact', id: pair[2], runId: pair[1] } };
  }
  const kind = kindOfId(text);
  if (kind === undefined) {
    return fail('unknownPrefix');
  }
  if (!isKnownId(text, kind)) {
    return fail('badCharacters');
  }
  return { ok: true, target: { kind, id: text } };
}

function fail(problem: GoToProblem): GoToParse {
  return { ok: false, problem };
}
