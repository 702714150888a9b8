// What every read-only file system of the extension (artifacts, a review's versions) answers the
// same way: no folders to list, nothing to watch (the contents never change once served), and
// every write refused with NoPermissions, so the editor shows the document as read-only.
import * as vscode from 'vscode';

export abstract class ReadOnlyFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  protected readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  abstract stat(uri: vscode.Uri): vscode.FileStat | Thenable<vscode.FileStat>;
  abstract readFile(uri: vscode.Uri): Uint8Array | Thenable<Uint8Array>;

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  createDirectory(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  writeFile(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
