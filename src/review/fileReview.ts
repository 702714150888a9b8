// One workspace file under review: its text now against the agent's version (merged three
// ways when the file changed since it was uploaded), as hunks to apply one by one.
import { sha256Hex as digest } from '../common/sha256';
import { type Translate, untranslated } from '../common/translate';
import type { Hunk } from './hunks';
import { applyHunks, computeHunks, TooDifferentError } from './hunks';
import type { DecodedText, NotTextReason } from './textCodec';
import { decodeText, encodeText } from './textCodec';
import type { MergeConflict } from './threeWay';
import { mergeThreeWay } from './threeWay';
import type { UploadOrigin } from './types';

export interface FileReviewInput {
  origin: UploadOrigin;
  /** The workspace file's bytes now; undefined when it is gone (deleted or renamed). */
  workspaceBytes: Uint8Array | undefined;
  agentBytes: Uint8Array;
  /** The file as sent; needed only when the workspace file changed since the upload. */
  asSentBytes?: Uint8Array;
  /** The messages' language (vscode.l10n.t in the extension); English by default. */
  t?: Translate;
}

export interface ReadyReview {
  status: 'ready';
  /** The workspace bytes differ from what was uploaded: the agent's changes were merged onto them. */
  changedSinceUpload: boolean;
  workspace: DecodedText;
  /** The workspace file's bytes as read (returned unchanged when no hunk is applied). */
  workspaceBytes: Uint8Array;
  /** The workspace text with every change of the agent that does not conflict (LF text). */
  proposed: string;
  /** `proposed` written the way the workspace file is (its line end, BOM): the right side of a diff. */
  proposedBytes: Uint8Array;
  /** workspace -> proposed; apply any subset with applyReviewHunks. */
  hunks: Hunk[];
  /** Where both the workspace and the agent changed the same lines differently (kept as the workspace has them). */
  conflicts: MergeConflict[];
  /** With conflicts: the merge with `<<<<<<< workspace` / `=======` / `>>>>>>> agent` markers, encoded like the file. */
  conflictMarkedBytes?: Uint8Array;
  /** Things worth telling the user (mixed line ends, line-end or BOM differences ignored). */
  notes: string[];
}

export type FileReview =
  | ReadyReview
  | { status: 'identical'; notes: string[] }
  | { status: 'gone'; message: string }
  | { status: 'needsAsSent'; message: string }
  /** The versions differ by more than a line diff looks for (MAX_EDIT_LINES): open or save the agent's version instead. */
  | { status: 'tooDifferent'; message: string }
  | { status: 'notText'; side: 'workspace' | 'agent' | 'asSent'; reason: NotTextReason; message: string };

/** Lower-case hex SHA-256, as kept in UploadOrigin.sha256. */
export function sha256Hex(bytes: Uint8Array): string {
  return digest(bytes);
}

/** Never throws; the caller reads the bytes (and, on `needsAsSent`, fetches the upload and asks again). */
export function reviewFile(input: FileReviewInput): FileReview {
  const t: Translate = input.t ?? untranslated;
  try {
    return reviewFileOrThrow(input, t);
  } catch (err) {
    if (!(err instanceof TooDifferentError)) {
      throw err;
    }
    return {
      status: 'tooDifferent',
      message: t('{0} is too different to review line by line: open or save it.', input.origin.relativePath),
    };
  }
}

function reviewFileOrThrow(input: FileReviewInput, t: Translate): FileReview {
  const { origin } = input;
  if (input.workspaceBytes === undefined) {
    return {
      status: 'gone',
      message: t('{0} is no longer in the workspace (deleted or renamed since it was uploaded).', origin.relativePath),
    };
  }
  const workspace = decodeText(input.workspaceBytes, t);
  if (!workspace.ok) {
    return {
      status: 'notText',
      side: 'workspace',
      reason: workspace.reason,
      message: t('{0}: {1}', origin.relativePath, workspace.message),
    };
  }
  const agent = decodeText(input.agentBytes, t);
  if (!agent.ok) {
    return {
      status: 'notText',
      side: 'agent',
      reason: agent.reason,
      message: t("The agent's version of {0}: {1}", origin.relativePath, agent.message),
    };
  }

  const notes = styleNotes(origin.relativePath, workspace.value, agent.value, t);
  const changedSinceUpload = sha256Hex(input.workspaceBytes) !== origin.sha256.toLowerCase();
  let proposed = agent.value.text;
  let conflicts: MergeConflict[] = [];
  let marked: string | undefined;
  if (changedSinceUpload) {
    if (!input.asSentBytes) {
      return {
        status: 'needsAsSent',
        message: t('{0} changed since it was uploaded; the file as sent is needed to merge.', origin.relativePath),
      };
    }
    const asSent = decodeText(input.asSentBytes, t);
    if (!asSent.ok) {
      return {
        status: 'notText',
        side: 'asSent',
        reason: asSent.reason,
        message: t('{0} as sent: {1}', origin.relativePath, asSent.message),
      };
    }
    const merge = mergeThreeWay(asSent.value.text, workspace.value.text, agent.value.text);
    proposed = merge.text;
    conflicts = merge.conflicts;
    if (!merge.clean) {
      marked = mergeThreeWay(asSent.value.text, workspace.value.text, agent.value.text, {
        conflictStyle: 'markers',
      }).text;
    }
  }
  if (proposed === workspace.value.text && conflicts.length === 0) {
    return { status: 'identical', notes };
  }
  return {
    status: 'ready',
    changedSinceUpload,
    workspace: workspace.value,
    workspaceBytes: input.workspaceBytes,
    proposed,
    proposedBytes: encodeText(proposed, workspace.value),
    hunks: computeHunks(workspace.value.text, proposed),
    conflicts,
    conflictMarkedBytes: marked === undefined ? undefined : encodeText(marked, workspace.value),
    notes,
  };
}

/**
 * The workspace file's new bytes with the chosen hunks applied, written with the file's own
 * line end and BOM. Choosing none (or only unknown ids) gives back the very bytes read, so a
 * file with mixed line ends is not rewritten by an empty apply.
 */
export function applyReviewHunks(review: ReadyReview, chosen: Iterable<string>): Uint8Array {
  const known = new Set(review.hunks.map((hunk) => hunk.id));
  const ids = [...chosen].filter((id) => known.has(id));
  if (ids.length === 0) {
    return review.workspaceBytes;
  }
  return encodeText(applyHunks(review.workspace.text, review.hunks, ids), review.workspace);
}

function styleNotes(name: string, workspace: DecodedText, agent: DecodedText, t: Translate): string[] {
  const notes: string[] = [];
  const eolName = (eol: string) => (eol === '\r\n' ? 'CRLF' : 'LF');
  if (workspace.mixedEol) {
    notes.push(
      t(
        '{0} mixes CRLF and LF line ends; changed files are written with {1} throughout.',
        name,
        eolName(workspace.eol),
      ),
    );
  }
  if (agent.eol !== workspace.eol && agent.text.includes('\n')) {
    notes.push(
      t("The agent's version uses {0} line ends; {1} keeps {2}.", eolName(agent.eol), name, eolName(workspace.eol)),
    );
  }
  if (agent.bom !== workspace.bom) {
    notes.push(
      agent.bom
        ? t("The agent's version adds a byte order mark; {0} keeps its own.", name)
        : t("The agent's version drops a byte order mark; {0} keeps its own.", name),
    );
  }
  return notes;
}
