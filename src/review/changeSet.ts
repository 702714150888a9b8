// Which artifacts of a run are new versions of workspace files, and the one change set they
// make: per workspace file, the agent's version of it.
import { type Translate, untranslated } from '../common/translate';
import { type FitBudget, fitBudget } from './hunkFit';
import type { PatchPart } from './patchFile';
import { applyPatchPart, parsePatchText, unsupportedReason } from './patchFile';
import { decodeText, encodeText } from './textCodec';
import type { ReviewArtifact, ReviewProblem, TaskAttachment, UploadOrigin } from './types';

/**
 * - `revision`: a new version of a file uploaded from this machine (`source_file_id` known)
 *   and given to this run's task.
 * - `patch`: a unified diff of the task's attachments (`text/x-diff`, or `.diff`/`.patch`).
 * - `unknownSource`: revises a file this machine did not upload; handled as a plain output.
 * - `otherTask`: revises an upload from here that this run's task was not given (another
 *   task's file); handled as a plain output.
 * - `plain`: anything else (reports, data).
 */
export type ArtifactKind = 'revision' | 'patch' | 'unknownSource' | 'otherTask' | 'plain';

export interface ClassifiedArtifact {
  artifact: ReviewArtifact;
  kind: ArtifactKind;
  /** For a revision: the upload it revises. */
  origin?: UploadOrigin;
}

export type OriginLookup = (fileId: string) => UploadOrigin | undefined;

/** One workspace file the run changed. */
export interface FileChange {
  /** The attachment's file id (the upload this is a new version of). */
  fileId: string;
  origin: UploadOrigin;
  source: { kind: 'revision' | 'patch'; artifactId: string; artifactName?: string };
  /** The agent's version of the file. */
  agentBytes: Uint8Array;
  /** The file as sent, when it was fetched to apply a patch (reuse it for a three-way merge). */
  asSentBytes?: Uint8Array;
}

export interface ChangeSet {
  /** One entry per workspace file (by URI), in the order the artifacts named them. */
  files: FileChange[];
  /** Every artifact with its kind, in the order given. */
  artifacts: ClassifiedArtifact[];
  /** What could not be turned into a file change, and why. */
  problems: ReviewProblem[];
}

export interface ChangeSetSources {
  originOf: OriginLookup;
  /**
   * The file ids this run's task was given: only these are accepted as revised files or patch
   * targets. Undefined: any upload from here (only for callers that have no task, e.g. tests).
   */
  taskFileIds?: ReadonlySet<string>;
  /** The task's attachments; a patch's file names are looked up among them. */
  attachments?: readonly TaskAttachment[];
  /** An artifact's content (GET /v1/files/{file_id}/content). */
  readArtifact(artifact: ReviewArtifact): Promise<Uint8Array>;
  /** An upload's content as the server stored it (GET /v1/files/{fileId}/content). */
  readAsSent(fileId: string): Promise<Uint8Array>;
  /** Turns a read failure into one sentence; defaults to the error's message. */
  describeError?(err: unknown): string;
  /** The messages' language (vscode.l10n.t in the extension); English by default. */
  t?: Translate;
  /** Stops applying a patch part (the reads take their own signal). */
  signal?: AbortSignal;
}

const PATCH_TYPES = new Set(['text/x-diff', 'text/x-patch']);

export function isPatchArtifact(artifact: ReviewArtifact): boolean {
  const mediaType =
    typeof artifact.content_type === 'string' ? artifact.content_type.split(';')[0].trim().toLowerCase() : '';
  if (PATCH_TYPES.has(mediaType)) {
    return true;
  }
  return typeof artifact.name === 'string' && /\.(diff|patch)$/i.test(artifact.name);
}

/**
 * A revision is recognised by its `source_file_id` before anything else, so an attachment
 * that happens to be a `.patch` file and comes back revised is a revision, not a patch. With
 * `taskFileIds`, a source the task was not given is `otherTask`, whoever uploaded it.
 */
export function classifyArtifact(
  artifact: ReviewArtifact,
  originOf: OriginLookup,
  taskFileIds?: ReadonlySet<string>,
): ClassifiedArtifact {
  const source = artifact.source_file_id;
  if (typeof source === 'string' && source !== '') {
    if (taskFileIds && !taskFileIds.has(source)) {
      return { artifact, kind: 'otherTask' };
    }
    const origin = originOf(source);
    return origin ? { artifact, kind: 'revision', origin } : { artifact, kind: 'unknownSource' };
  }
  return { artifact, kind: isPatchArtifact(artifact) ? 'patch' : 'plain' };
}

/**
 * Reads the revisions and patches among `artifacts` and builds the change set. Revisions are
 * taken first (they are whole files), then patches; a second version of a file already in the
 * set is reported as a duplicate and left out. Never throws: every failure is a problem.
 */
export async function buildChangeSet(
  artifacts: readonly ReviewArtifact[],
  sources: ChangeSetSources,
): Promise<ChangeSet> {
  const describe = sources.describeError ?? defaultDescribe;
  const t: Translate = sources.t ?? untranslated;
  const classified = artifacts.map((artifact) => classifyArtifact(artifact, sources.originOf, sources.taskFileIds));
  const files: FileChange[] = [];
  const problems: ReviewProblem[] = [];
  const taken = new Map<string, string>(); // workspace URI -> name of the artifact that gave its version
  const asSentCache = new Map<string, Promise<Uint8Array>>();
  const readAsSent = (fileId: string) => {
    let pending = asSentCache.get(fileId);
    if (!pending) {
      asSentCache.set(fileId, (pending = sources.readAsSent(fileId)));
    }
    return pending;
  };
  // A file's version is taken by the first artifact that yields one; asking first saves a read.
  const alreadyTaken = (origin: UploadOrigin, artifactId: string, file: string | undefined): boolean => {
    const previous = taken.get(origin.uri);
    if (previous === undefined) {
      return false;
    }
    problems.push({
      code: 'duplicate',
      artifactId,
      file,
      message: t(
        '{0} already has a new version from {1}; this one is left out (it is still listed as an output).',
        origin.relativePath,
        previous,
      ),
    });
    return true;
  };
  const add = (change: FileChange) => {
    taken.set(change.origin.uri, change.source.artifactName ?? change.source.artifactId);
    files.push(change);
  };
  const read = async <T>(
    artifactId: string,
    file: string | undefined,
    what: string,
    run: () => Promise<T>,
  ): Promise<T | undefined> => {
    try {
      return await run();
    } catch (err) {
      problems.push({
        code: 'readFailed',
        artifactId,
        file,
        message: t('Could not read {0}: {1}', what, describe(err)),
      });
      return undefined;
    }
  };

  for (const item of classified) {
    const { artifact } = item;
    if (item.kind === 'unknownSource') {
      problems.push({
        code: 'unknownSource',
        artifactId: artifact.id,
        file: artifact.name,
        message: t(
          '{0} revises a file that was not uploaded from this machine; it is offered as a plain output.',
          artifact.name ?? artifact.id,
        ),
      });
    }
    if (item.kind === 'otherTask') {
      problems.push({
        code: 'otherTask',
        artifactId: artifact.id,
        file: artifact.name,
        message: t(
          "{0} revises a file that was not given to this run's task; it is offered as a plain output.",
          artifact.name ?? artifact.id,
        ),
      });
    }
    if (item.kind !== 'revision' || !item.origin) {
      continue;
    }
    if (alreadyTaken(item.origin, artifact.id, artifact.name)) {
      continue;
    }
    const bytes = await read(artifact.id, artifact.name, artifact.name ?? artifact.id, () =>
      sources.readArtifact(artifact),
    );
    if (!bytes) {
      continue;
    }
    add({
      fileId: item.origin.fileId,
      origin: item.origin,
      source: { kind: 'revision', artifactId: artifact.id, artifactName: artifact.name },
      agentBytes: bytes,
    });
  }

  for (const item of classified) {
    if (item.kind !== 'patch') {
      continue;
    }
    const { artifact } = item;
    const label = artifact.name ?? artifact.id;
    const bytes = await read(artifact.id, artifact.name, label, () => sources.readArtifact(artifact));
    if (!bytes) {
      continue;
    }
    const decoded = decodeText(bytes, t);
    const parsed = decoded.ok
      ? parsePatchText(decoded.value.text, t)
      : { ok: false as const, message: t('{0} is not a text patch: {1}', label, decoded.message) };
    if (!parsed.ok) {
      problems.push({ code: 'patchUnparsable', artifactId: artifact.id, file: artifact.name, message: parsed.message });
      continue;
    }
    if (!sources.attachments) {
      problems.push({
        code: 'noAttachments',
        artifactId: artifact.id,
        file: artifact.name,
        message: t(
          "{0} is a patch, but the task's attachments are not known, so its files cannot be matched to workspace files.",
          label,
        ),
      });
      continue;
    }
    // One bound on placing hunks for the whole patch, however many parts it has.
    const budget = fitBudget();
    for (const part of parsed.parts) {
      const change = await changeFromPart(part, artifact, sources, {
        readAsSent,
        alreadyTaken,
        read,
        problems,
        t,
        budget,
      });
      if (change) {
        add(change);
      }
    }
  }
  return { files, artifacts: classified, problems };
}

/** The bookkeeping of buildChangeSet that each patch part shares. */
interface PatchWalk {
  readAsSent(fileId: string): Promise<Uint8Array>;
  alreadyTaken(origin: UploadOrigin, artifactId: string, file: string | undefined): boolean;
  read<T>(artifactId: string, file: string | undefined, what: string, run: () => Promise<T>): Promise<T | undefined>;
  problems: ReviewProblem[];
  t: Translate;
  budget: FitBudget;
}

async function changeFromPart(
  part: PatchPart,
  artifact: ReviewArtifact,
  sources: ChangeSetSources,
  walk: PatchWalk,
): Promise<FileChange | undefined> {
  const { readAsSent, alreadyTaken, read, problems } = walk;
  const t: Translate = walk.t;
  const name = part.name ?? '(no name)';
  const report = (code: ReviewProblem['code'], message: string) => {
    problems.push({ code, artifactId: artifact.id, file: name, message });
    return undefined;
  };
  const unsupported = unsupportedReason(part, t);
  if (unsupported) {
    return report('unsupportedPatch', unsupported);
  }
  const match = matchAttachment(part, sources.attachments ?? [], sources.originOf);
  if (match.kind === 'none') {
    return report('unknownFile', t("The patch changes {0}, which is not one of the task's attachments.", name));
  }
  if (match.kind === 'many') {
    return report(
      'ambiguousFile',
      t('The patch changes {0}, but several attachments have that name; it cannot tell which.', name),
    );
  }
  if (sources.taskFileIds && !sources.taskFileIds.has(match.fileId)) {
    return report('otherTask', t("The patch changes {0}, which was not given to this run's task.", name));
  }
  const origin = sources.originOf(match.fileId);
  if (!origin) {
    return report('unknownSource', t('The patch changes {0}, which was not uploaded from this machine.', name));
  }
  if (alreadyTaken(origin, artifact.id, name)) {
    return undefined;
  }
  const asSent = await read(artifact.id, name, t('{0} as it was sent', name), () => readAsSent(match.fileId));
  if (!asSent) {
    return undefined;
  }
  const decoded = decodeText(asSent, t);
  if (!decoded.ok) {
    return report('notText', t('{0}: {1}', name, decoded.message));
  }
  const applied = await applyPatchPart(part, decoded.value.text, t, { budget: walk.budget, signal: sources.signal });
  if (!applied.ok) {
    return report('patchDoesNotApply', applied.message);
  }
  return {
    fileId: match.fileId,
    origin,
    source: { kind: 'patch', artifactId: artifact.id, artifactName: artifact.name },
    agentBytes: encodeText(applied.text, decoded.value),
    asSentBytes: asSent,
  };
}

/**
 * The attachment a patch part is about: by filename (new name, then old name), and among
 * attachments sharing that filename, the one whose workspace path is the patch's path.
 */
function matchAttachment(
  part: PatchPart,
  attachments: readonly TaskAttachment[],
  originOf: OriginLookup,
): { kind: 'one'; fileId: string } | { kind: 'none' } | { kind: 'many' } {
  const names = [part.newName, part.oldName].filter((n): n is string => n !== undefined);
  for (const name of names) {
    const base = name.split('/').pop() ?? name;
    const found = attachments.filter((a) => a.filename === name || a.filename === base);
    if (found.length === 1) {
      return { kind: 'one', fileId: found[0].fileId };
    }
    if (found.length > 1) {
      const exact = found.filter((a) => originOf(a.fileId)?.relativePath === name);
      return exact.length === 1 ? { kind: 'one', fileId: exact[0].fileId } : { kind: 'many' };
    }
  }
  const byPath = attachments.filter((a) => names.includes(originOf(a.fileId)?.relativePath ?? '\0'));
  if (byPath.length === 1) {
    return { kind: 'one', fileId: byPath[0].fileId };
  }
  return byPath.length > 1 ? { kind: 'many' } : { kind: 'none' };
}

function defaultDescribe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
