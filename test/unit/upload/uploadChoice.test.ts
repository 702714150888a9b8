// The question before an upload: a selection over the service's attachment limit is offered
// only as one archive; a large selection is offered both ways; a small one is not asked about.
import * as assert from 'node:assert/strict';
import { MAX_UPLOAD_BYTES } from '../../../src/api/types';
import { chooseUploadShape, estimateArchiveBytes, PACK_SUGGESTED_FILES } from '../../../src/upload/uploadChoice';

const KB = 1024;
const size = (fileCount: number, bytesEach = 20 * KB) => ({
  fileCount,
  totalBytes: fileCount * bytesEach,
  nameBytes: fileCount * 20,
});

describe('upload/uploadChoice', () => {
  it('uploads a small selection within the limit one by one without asking', () => {
    assert.deepEqual(chooseUploadShape({ ...size(3), forTask: true, attachmentLimit: 100 }), { kind: 'separate' });
    assert.deepEqual(chooseUploadShape({ ...size(PACK_SUGGESTED_FILES), forTask: true }), { kind: 'separate' });
    assert.deepEqual(chooseUploadShape({ ...size(1, MAX_UPLOAD_BYTES), forTask: true, attachmentLimit: 1 }), {
      kind: 'separate',
    });
  });

  it('offers only the archive when the selection is over the known attachment limit', () => {
    const choice = chooseUploadShape({ ...size(300), forTask: true, attachmentLimit: 100 });
    assert.equal(choice.kind, 'ask');
    assert.ok(choice.kind === 'ask' && !choice.separate && choice.overLimit);
    // Over the limit even below the "many files" threshold.
    const few = chooseUploadShape({ ...size(5), forTask: true, attachmentLimit: 2 });
    assert.ok(few.kind === 'ask' && !few.separate && few.overLimit, JSON.stringify(few));
  });

  it('offers both ways for many files within the limit, or when the limit is unknown', () => {
    for (const input of [
      { ...size(PACK_SUGGESTED_FILES + 1), forTask: true, attachmentLimit: 100 },
      { ...size(300), forTask: true },
      { ...size(300), forTask: false, attachmentLimit: 100 },
    ]) {
      const choice = chooseUploadShape(input);
      assert.ok(choice.kind === 'ask' && choice.separate && !choice.overLimit, JSON.stringify({ input, choice }));
    }
  });

  it('the attachment limit does not apply to files uploaded without a task', () => {
    const choice = chooseUploadShape({ ...size(5), forTask: false, attachmentLimit: 2 });
    assert.deepEqual(choice, { kind: 'separate' });
  });

  it('refuses a selection over the limit whose archive would pass the size limit; never offers such an archive', () => {
    const huge = { fileCount: 300, totalBytes: MAX_UPLOAD_BYTES, nameBytes: 300 * 20 };
    assert.deepEqual(chooseUploadShape({ ...huge, forTask: true, attachmentLimit: 100 }), {
      kind: 'refuse',
      archiveBytes: estimateArchiveBytes(huge),
      limit: 100,
    });
    assert.deepEqual(chooseUploadShape({ ...huge, forTask: true, attachmentLimit: 1000 }), { kind: 'separate' });
  });

  it('estimates the stored archive above the sum of the files (headers per entry, names twice)', () => {
    const estimate = estimateArchiveBytes({ fileCount: 2, totalBytes: 1000, nameBytes: 10 });
    assert.ok(estimate > 1000 + 2 * 10, String(estimate));
    assert.ok(estimate < 1000 + 2 * 10 + 2 * 200 + 200, String(estimate));
  });
});
