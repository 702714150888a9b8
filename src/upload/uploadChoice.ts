// The question asked before a selection is uploaded: send its files one by one, pack them into
// one archive attachment, or neither. Pure (no vscode, no disk), so the rules are unit-tested.
import { MAX_UPLOAD_BYTES } from '../api/types';

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
  return size.totalBytes + 2 * size.nameBytes + size.fileCount * ENTRY_OVERHEAD_BYTES + END_OVERHEAD_BYTES;
}

/**
 * Per entry: local header (30), data descriptor (24 with ZIP64), central header (46), the
 * timestamp extra field in both headers (2 x 9), and room for a ZIP64 extra field.
 */
const ENTRY_OVERHEAD_BYTES = 160;
/** The end records (ZIP64 end, its locator, the classic end). */
const END_OVERHEAD_BYTES = 200;

export function chooseUploadShape(input: UploadChoiceInput): UploadChoice {
  const archiveBytes = estimateArchiveBytes(input);
  const archiveFits = input.fileCount > 1 && archiveBytes <= MAX_UPLOAD_BYTES;
  const limit = input.forTask ? input.attachmentLimit : undefined;
  const overLimit = limit !== undefined && input.fileCount > limit;
  if (overLimit) {
    return archiveFits
      ? { kind: 'ask', separate: false, overLimit, archiveBytes }
      : { kind: 'refuse', archiveBytes, limit };
  }
  // Within the limit the files can always go one by one; many of them are worth one question.
  if (archiveFits && input.fileCount > PACK_SUGGESTED_FILES) {
    return { kind: 'ask', separate: true, overLimit, archiveBytes };
  }
  return { kind: 'separate' };
}

/** A name's length in UTF-8 bytes (in the web worker too, which has no Buffer). */
export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}
