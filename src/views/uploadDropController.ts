// Dropping files from the Explorer (or the OS) on the Files or Tasks view uploads them: the
// controller only reads the dropped URIs and hands them to the extension's upload command.
import * as vscode from 'vscode';
import type { Logger } from '../common/logger';
import { parseUriList } from '../common/uriList';
import type { TreeNode } from './nodes';

const URI_LIST = 'text/uri-list';
/** VS Code's special type for any dropped file (from the OS); it carries a URI when it has one. */
const FILES = 'files';

export class UploadDropController implements vscode.TreeDragAndDropController<TreeNode> {
  readonly dropMimeTypes: readonly string[] = [URI_LIST, FILES];
  // Rows are not dragged anywhere.
  readonly dragMimeTypes: readonly string[] = [];

  constructor(
    private readonly uploadUris: (uris: vscode.Uri[]) => void | Thenable<unknown>,
    private readonly log: Logger,
  ) {}

  async handleDrop(
    _target: TreeNode | undefined,
    dataTransfer: vscode.DataTransfer,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const uris = await droppedUris(dataTransfer);
    if (token.isCancellationRequested) {
      return;
    }
    if (uris.length === 0) {
      this.log.info('Drop: nothing that can be uploaded (no file URIs).');
      return;
    }
    // The upload command shows its own progress, dialogs and errors (it is guarded): the drop ends now.
    void this.uploadUris(uris);
  }
}

/** The URIs of a drop: the uri-list first, then any dropped file that has one; each once. */
export async function droppedUris(dataTransfer: vscode.DataTransfer): Promise<vscode.Uri[]> {
  const seen = new Set<string>();
  const uris: vscode.Uri[] = [];
  const add = (uri: vscode.Uri) => {
    const key = uri.toString();
    if (seen.has(key)) {
      return;
    }
    seen.add(key);
    uris.push(uri);
  };
  const list = dataTransfer.get(URI_LIST);
  if (list) {
    for (const text of parseUriList(await list.asString())) {
      try {
        add(vscode.Uri.parse(text, true));
      } catch {
        // Not a URI after all; the rest of the list still counts.
      }
    }
  }
  dataTransfer.forEach((item) => {
    const uri = item.asFile()?.uri;
    if (uri) {
      add(uri);
    }
  });
  return uris;
}
