// Which repository a workspace folder opened without a clone stands for, read from its URI:
// VS Code for the Web's GitHub Repositories opens `vscode-vfs://github/owner/repo` (the
// authority may carry the ref after a `+`: `github+7b22...`). Only the repository is read from
// the URI, never a ref; branch and commit come from that extension's API (browserRevision.ts).
// The URL it gives is matched to a project by the one rule of repositoryUrl.ts. Pure.

export interface WorkspaceRepository {
  /** The clone URL, e.g. `https://github.com/owner/repo`. */
  url: string;
  owner: string;
  name: string;
}

/** The parts of a folder URI this reads (vscode.Uri has them). */
export interface FolderUriParts {
  scheme: string;
  authority: string;
  path: string;
}

/** GitHub's owner and repository names (letters, digits, `-`, `_`, `.`; not `.` or `..`). */
const NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/** The GitHub repository of a `vscode-vfs://github/owner/repo` folder; undefined for any other URI. */
export function repositoryOfFolder(uri: FolderUriParts): WorkspaceRepository | undefined {
  if (uri.scheme !== 'vscode-vfs') {
    return undefined;
  }
  const provider = uri.authority.split('+')[0].toLowerCase();
  if (provider !== 'github') {
    return undefined;
  }
  const [owner, name] = uri.path.replace(/^\/+/, '').split('/');
  if (!owner || !name || !NAME.test(owner) || !NAME.test(name) || /^\.+$/.test(owner) || /^\.+$/.test(name)) {
    return undefined;
  }
  return { url: `https://github.com/${owner}/${name}`, owner, name };
}
