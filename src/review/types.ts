// The plain records the review core works on: where an upload came from, the artifacts a run
// produced, and the problems reported instead of thrown.

/**
 * What the extension remembers about one upload, keyed by the server's file id, so that an
 * artifact revising that file can be shown against (and written back to) the workspace file.
 */
export interface UploadOrigin {
  fileId: string;
  /** The workspace file's URI, as a string (`vscode.Uri.toString()`). */
  uri: string;
  /** The URI string of the workspace folder the file was in, when it was in one. */
  workspaceFolder?: string;
  /** The path relative to that folder, `/`-separated; used in patches (`a/<relativePath>`). */
  relativePath: string;
  /** Lower-case hex SHA-256 of the bytes sent. */
  sha256: string;
  /** How many bytes were sent. */
  bytes: number;
  /** RFC 3339. */
  uploadedAt: string;
  /** Not uploaded: the file as it is at this commit of a project's repository (a project patch). */
  baseCommit?: string;
}

/**
 * The fields of an artifact record the review reads (an `ArtifactRecord` from src/api fits).
 * Everything but `id` is optional because a server may leave it out; `source_file_id` is
 * `unknown` because it is an assumed field (docs/PROTOCOL.md) and is checked before use.
 */
export interface ReviewArtifact {
  id: string;
  name?: string;
  file_id?: string;
  content_type?: string;
  source_file_id?: unknown;
  bytes?: number;
}

/** One of the task's attachments: its file id and the filename the server knows it by. */
export interface TaskAttachment {
  fileId: string;
  filename: string;
}

export type ReviewProblemCode =
  | 'unknownFile' // a patch names a file that is not one of the task's attachments
  | 'ambiguousFile' // two attachments share the filename a patch names
  | 'unknownSource' // the file was not uploaded from this machine: offered as a plain output
  | 'otherTask' // the file was not given to this run's task: offered as a plain output
  | 'duplicate' // a second version of a workspace file already given by another artifact
  | 'patchUnparsable' // not a unified diff jsdiff can read
  | 'patchDoesNotApply' // a file's part does not match the file as sent
  | 'unsupportedPatch' // creates, deletes, renames or binary changes: not reviewable here
  | 'refusedPath' // a project patch names a path outside the repository, into .git/, or through a link
  | 'notText' // binary or not UTF-8
  | 'noAttachments' // a patch, but the task's attachments are not known
  | 'readFailed'; // fetching a content failed

/** Something that could not be turned into a reviewable change; shown to the user, never thrown. */
export interface ReviewProblem {
  code: ReviewProblemCode;
  artifactId: string;
  /** The file the problem is about (a patch path or an artifact name), when there is one. */
  file?: string;
  message: string;
}
