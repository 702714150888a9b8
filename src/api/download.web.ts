// The web bundle's twin of download.ts: a browser has no file paths to write to. Artifacts open
// and save through the editor there (readFileContent, workspace.fs).
import { ApiError } from './errors';
import type { TransportResponse } from './transport';

export async function downloadToFile(
  res: TransportResponse,
  targetPath: string,
  _signal?: AbortSignal,
  _onProgress?: (received: number, total?: number) => void,
  _maxBytes?: number,
): Promise<{ path: string; bytes: number }> {
  res.body.destroy();
  throw new ApiError({
    kind: 'validation',
    message: `VS Code for the Web cannot write to "${targetPath}" on a disk; open the file in the editor and save it from there.`,
  });
}
