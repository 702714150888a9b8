// The batch upload planner: turns what the user selected (files and folders) into the list of
// files to send, and everything that must be refused before a single byte goes out. Plain Node
// (no vscode), so it is tested in mocha.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MAX_UPLOAD_BYTES } from '../api/types';

export interface PlannedFile {
  path: string;
  /** The name the service gets: the file's name, or its path below the selected folder's parent. */
  name: string;
  bytes: number;
  /**
   * Set when the user selected a symbolic link: the real file it points to. The editor shows it
   * and asks before sending; the API client sends a link's target only with followSymlinks.
   */
  symlinkTarget?: string;
  /**
   * Set for a file that is not on this machine's disk (a virtual workspace): reads its bytes
   * through the editor's file systems; `path` is then the file's URI.
   */
  read?: () => Promise<Uint8Array>;
}

export interface RefusedFile {
  path: string;
  reason: 'too_large' | 'too_large_in_memory' | 'unreadable' | 'not_a_file' | 'empty_folder';
  detail: string;
}

export interface UploadPlan {
  files: PlannedFile[];
  refused: RefusedFile[];
  totalBytes: number;
  /** Folders that were selected, with how many files each would add. */
  folders: { path: string; fileCount: number }[];
  /** True when a folder held more than MAX_FILES_PER_BATCH files and the rest were left out. */
  truncated: boolean;
}

/** Folders that are never worth uploading file by file. */
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);

/** Upper bound on files expanded from folders, so a stray root selection cannot hang the editor. */
export const MAX_FILES_PER_BATCH = 1000;

export async function planUpload(
  selected: readonly string[],
  options: { expandFolders: boolean },
): Promise<UploadPlan> {
  const plan: UploadPlan = { files: [], refused: [], totalBytes: 0, folders: [], truncated: false };
  const seen = new Set<string>();
  const add = async (file: string, name = path.basename(file), symlinkTarget?: string) => {
    const resolved = path.resolve(file);
    if (seen.has(resolved)) {
      return;
    }
    seen.add(resolved);
    const checked = await checkFile(resolved, name, symlinkTarget);
    if ('reason' in checked) {
      plan.refused.push(checked);
    } else {
      plan.files.push(checked);
      plan.totalBytes += checked.bytes;
    }
  };
  for (const entry of selected) {
    let stat;
    let target: string | undefined;
    try {
      // lstat: a link is judged by what it points to only once we know it is a link.
      stat = await fs.lstat(entry);
      if (stat.isSymbolicLink()) {
        target = await fs.realpath(entry);
        stat = await fs.stat(target);
      }
    } catch (err) {
      plan.refused.push({ path: entry, reason: 'unreadable', detail: errorCode(err) });
      continue;
    }
    if (target !== undefined) {
      // Folder expansion skips links; a link to a folder selected directly is not followed either.
      if (stat.isDirectory()) {
        plan.refused.push({ path: entry, reason: 'not_a_file', detail: `symbolic link to the folder ${target}` });
      } else {
        await add(entry, path.basename(entry), target);
      }
      continue;
    }
    if (!stat.isDirectory()) {
      await add(entry);
      continue;
    }
    const inside = await listFolder(entry, MAX_FILES_PER_BATCH + 1);
    if (inside.length > MAX_FILES_PER_BATCH) {
      plan.truncated = true;
      inside.length = MAX_FILES_PER_BATCH;
    }
    plan.folders.push({ path: entry, fileCount: inside.length });
    if (!options.expandFolders) {
      plan.refused.push({ path: entry, reason: 'not_a_file', detail: 'folder' });
      continue;
    }
    if (inside.length === 0) {
      plan.refused.push({ path: entry, reason: 'empty_folder', detail: 'no files' });
    }
    // "docs/a/index.md" and "docs/b/index.md" must not both reach the task as "index.md".
    const base = path.dirname(path.resolve(entry));
    for (const file of inside) {
      if (seen.size >= MAX_FILES_PER_BATCH) {
        plan.truncated = true;
        break;
      }
      await add(file, path.relative(base, path.resolve(file)).split(path.sep).join('/'));
    }
  }
  return plan;
}

/** Checks one file the way the API client will, so problems show before the batch starts. */
async function checkFile(file: string, name: string, symlinkTarget?: string): Promise<PlannedFile | RefusedFile> {
  try {
    const real = symlinkTarget ?? file;
    const stat = await fs.lstat(real);
    if (!stat.isFile()) {
      return { path: file, reason: 'not_a_file', detail: 'not a regular file' };
    }
    if (stat.size > MAX_UPLOAD_BYTES) {
      return { path: file, reason: 'too_large', detail: String(stat.size) };
    }
    const handle = await fs.open(real, 'r');
    await handle.close();
    return symlinkTarget === undefined
      ? { path: file, name, bytes: stat.size }
      : { path: file, name, bytes: stat.size, symlinkTarget };
  } catch (err) {
    return { path: file, reason: 'unreadable', detail: errorCode(err) };
  }
}

/** Every regular file below `folder` (depth first, sorted, skipping SKIPPED_FOLDERS), at most `limit`. */
export async function listFolder(folder: string, limit: number): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (out.length >= limit) {
        return;
      }
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) {
          await walk(full);
        }
      } else if (entry.isFile()) {
        out.push(full);
      }
    }
  };
  await walk(folder);
  return out;
}

function errorCode(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (err instanceof Error ? err.message : String(err));
}
