// A read-only file system for `agent-runtime:` URIs: artifact content fetched through the API
// client on demand, so a text artifact opens in a normal (read-only) editor tab.
import * as vscode from 'vscode';
import { type ApiClient } from '../api/client';
import { isApiError } from '../api/errors';
import { ReadOnlyFileSystem } from '../common/readOnlyFileSystem';
import { fileIdOf } from './artifactUris';

/** Largest artifact opened in an editor; bigger ones are saved to disk instead. */
export const MAX_OPEN_BYTES = 50 * 1024 * 1024;

export class ArtifactFileSystem extends ReadOnlyFileSystem {
  /** Sizes learned from reads, so stat() after the first read is exact. */
  private readonly sizes = new Map<string, number>();

  constructor(private readonly getClient: () => ApiClient) {
    super();
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const fileId = this.require(uri);
    const isRoot = uri.path.split('/').filter(Boolean).length < 2;
    return {
      type: isRoot ? vscode.FileType.Directory : vscode.FileType.File,
      ctime: 0,
      mtime: 0,
      size: this.sizes.get(fileId) ?? 0,
      permissions: vscode.FilePermission.Readonly,
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const fileId = this.require(uri);
    try {
      const { content } = await this.getClient().readFileContent(fileId, { maxBytes: MAX_OPEN_BYTES });
      this.sizes.set(fileId, content.byteLength);
      return content;
    } catch (err) {
      if (isApiError(err, 'not_found')) {
        throw vscode.FileSystemError.FileNotFound(uri);
      }
      throw err;
    }
  }

  private require(uri: vscode.Uri): string {
    const fileId = fileIdOf(uri);
    if (!fileId) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    return fileId;
  }
}
