// The question asked before a selection is uploaded: send its files one by one, pack them into
// one archive attachment, or neither. Pure (no vscode, no disk), so the rules are unit-tested.

/** Past this many files a selection is offered as one archive even when the service would take them all. */
export const PACK_SUGGESTED_FILES = 20;

export interface SelectionSize {
  fileCount: number;
  totalBytes: number;
  /** The bytes of the entry names (UTF-8), which the archive stores twice per file. */
  nameBytes: number;
}

export interface UploadChoiceInput extends SelectionSize {
  /** The files become one task's attachments (the attachment limit applies). */
  forTask: boolean;
  /** The service's attachment limit, when known (remembered from its own 400 answer). */
  attachmentLimit?: number;
}

export type UploadChoice =
  /** Upload the files one by one without asking (a small selection within the limit). */
  | { kind: 'separate' }
  /** Ask: pack (always offered), upload separately (only when `separate`), or cancel. */
  | { kind: 'ask'; separate: boolean; overLimit: boolean; archiveBytes: number }
  /** Neither fits: over the attachment limit, and the archive would pass the size limit. */
  | { kind: 'refuse'; archiveBytes: number; limit: number };

/** The archive's size when its files are stored as they are (the most it can be). */
export function estimateArchiveBytes(size: SelectionSize): number {
  void size;
  return 0;
}

export function chooseUploadShape(input: UploadChoiceInput): UploadChoice {
  void input;
  return { kind: 'separate' };
}
