// The `agent-runtime:` URIs of artifacts opened in the editor: /<file_id>/<safe name>, so the
// file system provider knows what to fetch and the editor picks the language from the name.
import * as vscode from 'vscode';
import { safeFileName } from '../api/safeName';
import { type ArtifactRecord } from '../api/types';

export const ARTIFACT_SCHEME = 'agent-runtime';

export function artifactUri(artifact: ArtifactRecord): vscode.Uri {
  const fileId = artifact.file_id ?? artifact.id;
  const name = safeFileName(artifact.name, artifact.id);
  return vscode.Uri.from({ scheme: ARTIFACT_SCHEME, path: `/${encodeURIComponent(fileId)}/${name}` });
}

/** The file id a URI of ours points at, or undefined for anything else. */
export function fileIdOf(uri: vscode.Uri): string | undefined {
  const [, first] = uri.path.split('/');
  return uri.scheme === ARTIFACT_SCHEME && first ? decodeURIComponent(first) : undefined;
}

const TEXT_EXTENSIONS = new Set([
  'md',
  'markdown',
  'txt',
  'json',
  'jsonl',
  'yaml',
  'yml',
  'xml',
  'html',
  'htm',
  'css',
  'csv',
  'tsv',
  'log',
  'js',
  'mjs',
  'cjs',
  'ts',
  'tsx',
  'jsx',
  'py',
  'rs',
  'go',
  'java',
  'c',
  'h',
  'cpp',
  'hpp',
  'cs',
  'rb',
  'php',
  'sh',
  'bash',
  'ps1',
  'sql',
  'toml',
  'ini',
  'cfg',
  'conf',
  'diff',
  'patch',
  'svg',
  'rst',
  'tex',
]);

/** Whether an artifact is worth opening as text (by content type first, then by name). */
export function isTextArtifact(artifact: ArtifactRecord): boolean {
  const type = (artifact.content_type ?? '').toLowerCase();
  if (type.startsWith('text/') || /\b(json|xml|yaml|javascript|markdown|csv|x-sh|sql|toml)\b/.test(type)) {
    return true;
  }
  if (type && !type.startsWith('application/octet-stream')) {
    return false;
  }
  const ext = (artifact.name ?? '').toLowerCase().split('.').pop() ?? '';
  return TEXT_EXTENSIONS.has(ext);
}
