// The branch and commit of a workspace opened from a GitHub repository in VS Code for the Web, as
// the GitHub Repositories extension (RemoteHub) tells them through its API: getMetadata(uri)
// .getRevision(). Without that extension, or when it does not answer in time or answers with
// something that is not a branch name and a full commit id, nothing is claimed: the caller leaves
// the branch to the service's default and says so.
import * as vscode from 'vscode';

/** The extension's ids: github.dev's built-in one, then the desktop's Remote Repositories. */
const REMOTE_HUB_IDS = ['GitHub.remotehub', 'ms-vscode.remote-repositories'];
/** How long the extension may take to say (a bound on a call into another extension). */
const REVISION_TIMEOUT_MS = 10_000;
/** RemoteHub's HeadType: Branch 0, RemoteBranch 1, Tag 2, Commit 3. */
const BRANCH_TYPES = new Set([0, 1]);

interface RemoteHubApi {
  getMetadata?(uri: vscode.Uri): Promise<{ getRevision?(): Promise<unknown> } | undefined>;
}

export interface BrowserRevision {
  /** The branch the workspace shows, when the extension says it is on one. */
  ref?: string;
  /** The full commit id it shows. */
  commit?: string;
}

/** The branch and commit of `folder`, as far as the GitHub Repositories extension tells them. Never throws. */
export async function browserRevision(folder: vscode.Uri): Promise<BrowserRevision> {
  const extension = REMOTE_HUB_IDS.map((id) => vscode.extensions.getExtension<RemoteHubApi>(id)).find(Boolean);
  if (!extension) {
    return {};
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), REVISION_TIMEOUT_MS);
  });
  try {
    const read = async (): Promise<unknown> => {
      const api = extension.isActive ? extension.exports : await extension.activate();
      const metadata = await api?.getMetadata?.(folder);
      return metadata?.getRevision?.();
    };
    return revisionOf(await Promise.race([read(), gaveUp]));
  } catch {
    return {};
  } finally {
    clearTimeout(timer);
  }
}

/** What of the extension's answer is believed: a branch name and a full commit id, checked. */
export function revisionOf(answer: unknown): BrowserRevision {
  if (typeof answer !== 'object' || answer === null) {
    return {};
  }
  const { type, name, revision } = answer as { type?: unknown; name?: unknown; revision?: unknown };
  const out: BrowserRevision = {};
  if (typeof revision === 'string' && /^[0-9a-f]{40}$/i.test(revision)) {
    out.commit = revision.toLowerCase();
  }
  if (
    typeof type === 'number' &&
    BRANCH_TYPES.has(type) &&
    typeof name === 'string' &&
    name.length <= 255 &&
    /^[^\s~^:?*[\\]+$/.test(name) &&
    ![...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
  ) {
    out.ref = name;
  }
  return out;
}
