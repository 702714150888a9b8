// Remote URL matching (docs/PROTOCOL.md, Projects) and what a remote with credentials may reach:
// never a request body, a log line or an error.
import * as assert from 'node:assert/strict';
import { ApiClient } from '../../../src/api/client';
import { createProjectFor, createProjectRequest } from '../../../src/projects/projectRequests';
import {
  matchProject,
  repositoryName,
  sameRepository,
  suggestedProjectName,
  withoutCredentials,
} from '../../../src/projects/repositoryUrl';
import { CapturingLogger, json, QUICK_BACKOFF, rejectionOf, startRecordingServer } from '../api/fixtures';

describe('projects/repositoryUrl', () => {
  it('matches host and path, case-insensitive, ignoring .git, user info and the scheme', () => {
    const same = [
      'https://github.com/Owner/Repo',
      'https://github.com/owner/repo.git',
      'git@github.com:owner/repo.git',
      'ssh://git@github.com/owner/repo',
      'https://user:token@GitHub.com/owner/repo/',
      'http://github.com/owner/repo.git/',
      'git://github.com/owner/repo',
    ];
    for (const url of same) {
      assert.ok(sameRepository(url, 'https://github.com/owner/repo'), url);
    }
    assert.equal(repositoryName('git@github.com:owner/repo.git')?.key, 'github.com/owner/repo');
  });

  it('tells different repositories and non-URLs apart', () => {
    assert.ok(!sameRepository('https://github.com/owner/repo', 'https://gitlab.com/owner/repo'));
    assert.ok(!sameRepository('https://github.com/owner/repo', 'https://github.com/owner/repo2'));
    assert.ok(!sameRepository('https://github.com/owner/repo', 'https://github.com/other/repo'));
    for (const junk of [
      '',
      '/home/me/repo',
      'C:\\repos\\x',
      'C:/repos/x',
      'file:///srv/repo.git',
      'https://',
      'not a url',
      'a\nb',
    ]) {
      assert.equal(repositoryName(junk), undefined, JSON.stringify(junk));
    }
    assert.ok(!sameRepository('/home/me/repo', '/home/me/repo'), 'two local paths are not a service repository');
  });

  it('strips user info from scheme URLs and keeps the ssh account of the scp form', () => {
    assert.equal(withoutCredentials('https://user:tok@github.com/o/r.git'), 'https://github.com/o/r.git');
    assert.equal(withoutCredentials('https://tok@github.com/o/r'), 'https://github.com/o/r');
    assert.equal(withoutCredentials('https://u:p@ss@host/x'), 'https://host/x', 'a password holding @ goes whole');
    assert.equal(withoutCredentials('ssh://git:secret@host/x'), 'ssh://host/x');
    assert.equal(withoutCredentials('git@github.com:o/r.git'), 'git@github.com:o/r.git');
    assert.equal(
      withoutCredentials('https://github.com/o/r?x=a@b'),
      'https://github.com/o/r?x=a@b',
      'an @ after the host is not user info',
    );
  });

  it('strips a secret query parameter and the password of an scp user', () => {
    assert.equal(withoutCredentials('https://host/o/r.git?access_token=SECRET'), 'https://host/o/r.git');
    assert.equal(
      withoutCredentials('https://host/o/r?ref=main&private_token=SECRET&x=1#top'),
      'https://host/o/r?ref=main&x=1#top',
    );
    assert.equal(withoutCredentials('https://host/o/r?Access%5FToken=SECRET'), 'https://host/o/r');
    assert.equal(withoutCredentials('https://u:SECRET@host/o/r?password=SECRET'), 'https://host/o/r');
    assert.equal(withoutCredentials('user:SECRET@github.com:o/r.git'), 'github.com:o/r.git');
    assert.equal(withoutCredentials('git@github.com:o/r.git'), 'git@github.com:o/r.git', 'the ssh account stays');
    assert.equal(withoutCredentials('/home/me/repo'), '/home/me/repo');
    for (const url of ['https://host/o/r.git?access_token=SECRET', 'user:SECRET@github.com:o/r.git']) {
      assert.ok(!withoutCredentials(url).includes('SECRET'), url);
      assert.ok(sameRepository(withoutCredentials(url), url), 'still the same repository');
    }
  });

  it('finds the project of a remote among many, and suggests a name', () => {
    const projects = [
      { id: 'proj_1', repository: { url: 'https://example.com/a/one' } },
      { id: 'proj_2', repository: { url: 'git@example.com:a/two.git' } },
      { id: 'proj_3', repository: { url: 42 } },
      { id: 'proj_4' },
    ];
    assert.equal(matchProject('https://user:x@example.com/A/Two', projects)?.id, 'proj_2');
    assert.equal(matchProject('https://example.com/a/three', projects), undefined);
    assert.equal(suggestedProjectName('git@example.com:a/two.git'), 'two');
    assert.equal(suggestedProjectName('https://tok@example.com/a/Three.git/'), 'Three');
  });

  it('a remote with a token never reaches a request body, a log line or an error', async () => {
    const token = 'ghp_SeCrEtToKeN123';
    const remote = `https://someone:${token}@example.com/team/app.git`;
    const server = await startRecordingServer((req, res) => {
      // A server that echoes the request back in its error: whatever was sent would show.
      json(res, 400, {
        error: {
          type: 'invalid_request_error',
          code: 'invalid_parameter',
          message: `You sent ${req.body.toString('utf8')}`,
        },
      });
    });
    const logger = new CapturingLogger();
    const client = new ApiClient({
      baseUrl: server.baseUrl,
      getApiKey: async () => 'k',
      logger,
      backoff: QUICK_BACKOFF,
    });
    try {
      const request = createProjectRequest(remote);
      assert.ok(request);
      assert.equal(request.repository.url, 'https://example.com/team/app.git');
      assert.equal(request.name, 'app');
      const err = await rejectionOf(createProjectFor(client, request));
      assert.equal(server.requests.length, 1);
      const body = server.requests[0].body.toString('utf8');
      assert.ok(!body.includes(token) && !body.includes('someone'), body);
      assert.ok(!String((err as Error).message).includes(token));
      assert.ok(!JSON.stringify(err).includes(token));
      assert.ok(!logger.lines.some((line) => line.includes(token)));
    } finally {
      await client.dispose();
      await server.close();
    }
  });
});
