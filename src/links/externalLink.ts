// A run link as the user can share it: for this editor's own scheme (vscode, vscode-insiders,
// code-server's), passed through asExternalUri, which in a browser-hosted editor turns it into
// an https address that reaches this extension's URI handler.
import * as vscode from 'vscode';
import { formatRunLink, type RunLinkTarget } from './runLink';

export async function externalRunLink(target: RunLinkTarget): Promise<string> {
  const uri = vscode.Uri.parse(formatRunLink(vscode.env.uriScheme, target));
  // toString(true): Uri.toString() would percent-encode the callback's query separators (`=`, `&`),
  // and code-server's /callback then reads one unnamed parameter: a link that opens nothing.
  return (await vscode.env.asExternalUri(uri)).toString(true);
}
