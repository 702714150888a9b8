// The memory file system's addresses: `agent-runtime-memory:/<mem id>.md` is an entry as the user
// edits it; with `?service` it is the service's current text, read-only (the left side of a conflict).
import * as vscode from 'vscode';

export const MEMORY_SCHEME = 'agent-runtime-memory';
const SERVICE_QUERY = 'service';

/** Ids we put in a path: the service's own shape, nothing that could leave the folder. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,200}$/;

export function memoryUri(id: string): vscode.Uri {
  if (!SAFE_ID.test(id)) {
    throw new Error('not a memory id');
  }
  return vscode.Uri.from({ scheme: MEMORY_SCHEME, path: `/${id}.md` });
}

export function serviceCopyUri(id: string): vscode.Uri {
  return memoryUri(id).with({ query: SERVICE_QUERY });
}

export interface MemoryAddress {
  id: string;
  /** The service's copy of a conflict (read-only). */
  serviceCopy: boolean;
}

export function parseMemoryUri(uri: vscode.Uri): MemoryAddress | undefined {
  if (uri.scheme !== MEMORY_SCHEME) {
    return undefined;
  }
  const found = /^\/([A-Za-z0-9_-]{1,200})\.md$/.exec(uri.path);
  return found ? { id: found[1], serviceCopy: uri.query === SERVICE_QUERY } : undefined;
}
