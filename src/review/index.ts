// Reviewing what a run produced: the pure core (plain Node, never imports vscode).
//
// README
// ------
// A run's artifacts may be new versions of files the user uploaded from this workspace
// (docs/PROTOCOL.md, Artifacts, review and patches): an artifact with
// `source_file_id` revises that upload; a patch artifact (`text/x-diff`, or `.diff`/`.patch`)
// is a unified diff of the attachments (`a/<filename>`, `b/<filename>`). This folder turns
// them into per-file, per-hunk changes the editor layer can show and write:
//
//   classifyArtifact(artifact, originOf)          revision | patch | unknownSource | plain
//   buildChangeSet(artifacts, sources)            one FileChange (agent's bytes) per workspace
//                                                 file + problems; never throws
//   reviewFile({origin, workspaceBytes,           hunks workspace->proposed; three-way merged
//               agentBytes, asSentBytes?})        when the file changed since upload; conflicts
//   applyReviewHunks(review, hunkIds)             bytes to write (file's EOL/BOM kept)
//   checkWriteTarget(folder, target)              inside the folder, symlinks resolved, not gone
//                                                 (./safeTarget, Node: src/reviewUi/workspaceTarget.ts calls it)
//   formatChangeSetPatch(files)                   "Save as patch" (a/<relativePath> b/<relativePath>)
//   interdiff(previous, current)                  Changes Since Revision N: the files two revisions
//                                                 leave differently, and the count left the same
//
// The lower layers are public too: decodeText/encodeText (UTF-8 only; binary, UTF-16 and
// invalid UTF-8 are refused with a reason; text is LF inside, written back with the file's
// dominant line end, BOM and final-newline state as changed), computeHunks/applyHunks
// (stable content-based hunk ids; any subset in any order), mergeThreeWay (the documented
// merge walk), parsePatchText/applyPatchPart (jsdiff, fuzz 0).
//
// Usual flow for the editor layer: classify -> buildChangeSet (fetching artifact and as-sent
// contents through the callbacks) -> for each FileChange read the workspace file and call
// reviewFile (on `needsAsSent`, fetch GET /v1/files/{fileId}/content and call again) -> show
// `proposedBytes` against the file -> on "apply" call checkWriteTarget, then write
// applyReviewHunks(...) with one WorkspaceEdit (undoable).
export type { ReviewArtifact, ReviewProblem, ReviewProblemCode, TaskAttachment, UploadOrigin } from './types';
export { decodeText, encodeText, splitLines } from './textCodec';
export type { DecodedText, DecodeResult, Eol, NotTextReason } from './textCodec';
export { applyHunks, computeHunks, MAX_EDIT_LINES, pushAll, TooDifferentError } from './hunks';
export type { Hunk, LineRange } from './hunks';
export { mergeThreeWay, MARKER_AGENT, MARKER_SEPARATOR, MARKER_WORKSPACE } from './threeWay';
export type { ConflictStyle, MergeConflict, MergeResult } from './threeWay';
export { applyPatchPart, formatChangeSetPatch, parsePatchText, stripPatchPrefix, unsupportedReason } from './patchFile';
export type { ParsedPatch, PatchApplied, PatchFileEntry, PatchPart } from './patchFile';
export { buildChangeSet, classifyArtifact, isPatchArtifact } from './changeSet';
export type {
  ArtifactKind,
  ChangeSet,
  ChangeSetSources,
  ClassifiedArtifact,
  FileChange,
  OriginLookup,
} from './changeSet';
export { applyReviewHunks, reviewFile, sha256Hex } from './fileReview';
export type { FileReview, FileReviewInput, ReadyReview } from './fileReview';
export type { TargetCheck, TargetCheckOptions } from './safeTarget';
export { interdiff } from './interdiff';
export type { Interdiff, InterdiffEntry, RevisionFile } from './interdiff';
