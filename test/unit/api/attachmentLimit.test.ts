// The 400 for too many attachments (docs/PROTOCOL.md, Tasks) reaches the caller with its code, param and
// numeric limit, so the editor can plan (pack or split); a limit that is not a safe positive
// integer is left out.
import * as assert from 'node:assert/strict';
import { isApiError } from '../../../src/api/errors';
import { json, rejectionOf, startRecordingServer } from './fixtures';
import { ApiClient } from './transportUnderTest';

describe('api/errors: too many attachments', () => {
  it('carries code, param and a safe positive integer limit', async () => {
    const limits: unknown[] = [100, '100', -1, 0, 1.5, 1e300, null];
    const server = await startRecordingServer((_req, res, index) =>
      json(res, 400, {
        error: {
          type: 'invalid_request_error',
          code: 'too_many_attachments',
          param: 'attachments',
          message: 'At most 100 attachments.',
          limit: limits[index],
        },
      }),
    );
    const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'k-1234', maxRetries: 0 });
    try {
      const seen: unknown[] = [];
      for (let i = 0; i < limits.length; i++) {
        const err = await rejectionOf(
          client.createTask({ objective: 'many', attachments: [{ type: 'document', fileId: 'file_1' }] }),
        );
        assert.ok(isApiError(err, 'bad_request'), String(err));
        assert.equal(err.code, 'too_many_attachments');
        assert.equal(err.param, 'attachments');
        seen.push((err as { limit?: unknown }).limit);
      }
      assert.deepEqual(seen, [100, undefined, undefined, undefined, undefined, undefined, undefined]);
    } finally {
      await client.dispose();
      await server.close();
    }
  });
});
