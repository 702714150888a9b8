// The project calls the VS Code side makes, kept pure: what is sent for a remote (its URL without
// credentials), and a create that treats 409 project_exists as "use that one". Plain Node.
import type { ApiClient } from '../api/client';
import { existingProject } from '../api/projects';
import type { CreateProjectRequest, ProjectRecord } from '../api/types';
import { repositoryName, suggestedProjectName, withoutCredentials } from './repositoryUrl';

/** The body of POST /v1/projects for a remote; undefined when the remote is not a clone URL. */
export function createProjectRequest(
  remoteUrl: string,
  name?: string,
  defaultBranch?: string,
): CreateProjectRequest | undefined {
  const url = withoutCredentials(remoteUrl);
  if (!repositoryName(url)) {
    return undefined;
  }
  const chosen = name?.trim() || suggestedProjectName(url) || url;
  return { name: chosen, repository: { url, ...(defaultBranch ? { default_branch: defaultBranch } : {}) } };
}

export type CreatedProject = { project: ProjectRecord; existed: boolean };

type ProjectClient = Pick<ApiClient, 'createProject'>;

/** Creates the remote's project; when the repository already has one, that one (existed: true). */
export async function createProjectFor(
  client: ProjectClient,
  request: CreateProjectRequest,
  signal?: AbortSignal,
): Promise<CreatedProject> {
  try {
    return { project: await client.createProject(request, { signal }), existed: false };
  } catch (err) {
    const existing = existingProject(err);
    if (existing) {
      return { project: existing, existed: true };
    }
    throw err;
  }
}
