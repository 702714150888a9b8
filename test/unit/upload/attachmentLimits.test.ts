// The attachment limit a service named in a 400 too_many_attachments answer is remembered per
// service address; nonsense limits are not.
import * as assert from 'node:assert/strict';
import { knownAttachmentLimit, rememberAttachmentLimit } from '../../../src/upload/attachmentLimits';

describe('upload/attachmentLimits', () => {
  it('remembers the limit per service address and ignores unusable values', () => {
    const a = 'https://a.example.test';
    const b = 'https://b.example.test';
    assert.equal(knownAttachmentLimit(a), undefined);
    rememberAttachmentLimit(a, 10);
    rememberAttachmentLimit(b, undefined);
    assert.equal(knownAttachmentLimit(a), 10);
    assert.equal(knownAttachmentLimit(b), undefined);
    for (const bad of [0, -1, 2.5, Number.NaN]) {
      rememberAttachmentLimit(a, bad);
    }
    assert.equal(knownAttachmentLimit(a), 10);
    rememberAttachmentLimit(a, 20);
    assert.equal(knownAttachmentLimit(a), 20);
  });
});
