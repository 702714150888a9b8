// The memory documents' base version only moves forward: a read that left before a save and
// answers after it must not make the next save a false conflict, nor show the older text.
import '../views/vscodeStub';
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { ApiClient } from '../../../src/api/client';
import { ApiError } from '../../../src/api/errors';
import type { MemoryRecord } from '../../../src/api/resourceTypes';
import { isSaveOfOpenDocument, type MemoryConsent } from '../../../src/memory/memoryConsent';
import { MemoryFileSystem } from '../../../src/memory/memoryFileSystem';
import { wholeEntryLines } from '../../../src/memory/memoryText';

const ID = 'mem_1';
const uri = { scheme: 'agent-runtime-memory', path: `/${ID}.md`, query: '' } as unknown as vscode.Uri;
/** Every write is the person's save (the tests of the base version are not about asking). */
const PERSON_SAVES: MemoryConsent = {
  isPersonSave: () => true,
  confirmWrite: async () => assert.fail('a person save asked'),
  confirmDelete: async () => true,
};
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
const bytes = (value: string): Uint8Array => new TextEncoder().encode(value);

/** A service holding one entry; each GET answers only when the test releases it. */
function fakeService() {
  let record: MemoryRecord = { id: ID, content: 'one', version: 1 } as MemoryRecord;
  const gets: Array<() => void> = [];
  const patches: Array<{ content?: string; version: number }> = [];
  const client = {
    getMemory: (id: string) => {
      const answer = { ...record, id };
      return new Promise<MemoryRecord>((resolve) => gets.push(() => resolve(answer)));
    },
    updateMemory: async (id: string, body: { content?: string; version: number }) => {
      patches.push(body);
      if (body.version !== record.version) {
        throw new Error(`version_conflict: sent ${body.version}, holds ${record.version}`);
      }
      record = { ...record, id, content: body.content ?? record.content, version: record.version + 1 };
      return { ...record };
    },
  } as unknown as ApiClient;
  return { client, gets, patches };
}

describe('memory/memoryFileSystem: the base version only moves forward', () => {
  it('a read answered after a save keeps the saved version and text', async () => {
    const service = fakeService();
    const fs = new MemoryFileSystem(() => service.client, PERSON_SAVES);
    const first = fs.readFile(uri);
    service.gets.shift()!();
    assert.equal(text(await first), 'one');

    // A read leaves (it will carry version 1), then a save lands (version 2), then the read answers.
    const late = fs.readFile(uri);
    await fs.writeFile(uri, bytes('two'));
    service.gets.shift()!();
    assert.equal(text(await late), 'two', 'the late read showed the older text');
    assert.equal(fs.knownRecord(ID)?.version, 2, 'the late read moved the base version back');

    await fs.writeFile(uri, bytes('three'));
    assert.deepEqual(
      service.patches.map((p) => p.version),
      [1, 2],
      'the next save was based on the older version',
    );
    fs.dispose();
  });

  it('a tree listing older than a save does not move the base back either', async () => {
    const service = fakeService();
    const fs = new MemoryFileSystem(() => service.client, PERSON_SAVES);
    fs.remember({ id: ID, content: 'one', version: 1 } as MemoryRecord);
    await fs.writeFile(uri, bytes('two'));
    fs.remember({ id: ID, content: 'one', version: 1 } as MemoryRecord);
    assert.equal(fs.knownRecord(ID)?.version, 2);
    assert.equal(fs.knownRecord(ID)?.content, 'two');
    fs.remember({ id: ID, content: 'theirs', version: 5 } as MemoryRecord);
    assert.equal(fs.knownRecord(ID)?.version, 5, 'a newer record is taken');
    fs.dispose();
  });

  it('a write of the text the service holds for the known version sends nothing', async () => {
    const service = fakeService();
    const fs = new MemoryFileSystem(() => service.client, PERSON_SAVES);
    fs.remember({ id: ID, content: 'one', version: 1 } as MemoryRecord);
    await fs.writeFile(uri, bytes('one'));
    assert.deepEqual(service.patches, [], 'an unchanged text was sent');
    await fs.writeFile(uri, bytes('one!'));
    assert.equal(service.patches.length, 1);
    fs.dispose();
  });
});

describe('memory/memoryFileSystem: an entry deleted and created again under its id is new', () => {
  /** A service whose entry the test replaces (or deletes: undefined); GETs answer at once. */
  function switchableService(first: MemoryRecord) {
    const state: { record: MemoryRecord | undefined } = { record: first };
    const client = {
      getMemory: async (id: string) => {
        if (!state.record) {
          throw new ApiError({
            kind: 'not_found',
            status: 404,
            code: 'not_found',
            message: `No memory with id ${id}.`,
          });
        }
        return { ...state.record };
      },
      updateMemory: async (id: string) => {
        if (!state.record) {
          throw new ApiError({
            kind: 'not_found',
            status: 404,
            code: 'not_found',
            message: `No memory with id ${id}.`,
          });
        }
        throw new Error('not used here');
      },
    } as unknown as ApiClient;
    return { client, state };
  }

  it('a record of another created_at is taken even at a lower version; a stale one of the same is not', async () => {
    const old = { id: ID, content: 'old', version: 5, created_at: '2026-01-01T00:00:00Z' } as MemoryRecord;
    const service = switchableService(old);
    const fs = new MemoryFileSystem(() => service.client, PERSON_SAVES);
    assert.equal(text(await fs.readFile(uri)), 'old');

    fs.remember({ ...old, content: 'stale', version: 4 });
    assert.equal(fs.knownRecord(ID)?.version, 5, 'a stale read of the same entry moved the base back');

    service.state.record = { id: ID, content: 'new', version: 1, created_at: '2026-02-01T00:00:00Z' } as MemoryRecord;
    assert.equal(text(await fs.readFile(uri)), 'new', 'the recreated entry showed the old text');
    assert.equal(fs.knownRecord(ID)?.version, 1, 'the recreated entry kept the old base version');

    // A read of the deleted entry that left before and answers now: a higher version, the earlier creation time.
    fs.remember(old);
    assert.equal(fs.knownRecord(ID)?.version, 1, 'a late read of the deleted entry became the base');
    assert.equal(fs.knownRecord(ID)?.content, 'new');
    fs.dispose();
  });

  it('after a 404 the entry created again is read as new (no created_at needed)', async () => {
    const service = switchableService({ id: ID, content: 'old', version: 5 } as MemoryRecord);
    const fs = new MemoryFileSystem(() => service.client, PERSON_SAVES);
    assert.equal(text(await fs.readFile(uri)), 'old');

    service.state.record = undefined;
    await assert.rejects(fs.readFile(uri), (err: Error & { code?: string }) => err.code === 'FileNotFound');

    service.state.record = { id: ID, content: 'new', version: 1 } as MemoryRecord;
    assert.equal(text(await fs.readFile(uri)), 'new', 'the entry created after the 404 showed the old text');
    assert.equal(fs.knownRecord(ID)?.version, 1);
    fs.dispose();
  });

  it('a save answered 404 forgets the base too, so the entry created again is read as new', async () => {
    const service = switchableService({ id: ID, content: 'old', version: 5 } as MemoryRecord);
    const fs = new MemoryFileSystem(() => service.client, PERSON_SAVES);
    assert.equal(text(await fs.readFile(uri)), 'old');

    service.state.record = undefined;
    await assert.rejects(
      fs.writeFile(uri, bytes('edited')),
      (err: Error & { code?: string }) => err.code === 'FileNotFound',
    );
    assert.equal(fs.knownRecord(ID), undefined, 'the deleted entry is still the base');

    service.state.record = { id: ID, content: 'new', version: 1 } as MemoryRecord;
    assert.equal(text(await fs.readFile(uri)), 'new');
    fs.dispose();
  });
});

describe("memory/memoryFileSystem: a write that is not the person's save, and every delete, asks", () => {
  /** A consent that counts its questions and answers `yes`. */
  function asking(yes: boolean) {
    const asked: { write: Array<{ current: string; text: string }>; delete: string[] } = { write: [], delete: [] };
    const consent: MemoryConsent = {
      isPersonSave: () => false,
      confirmWrite: async (current, newText) => {
        asked.write.push({ current: current.content, text: newText });
        return yes;
      },
      confirmDelete: async (current) => {
        asked.delete.push(current.id);
        return yes;
      },
    };
    return { consent, asked };
  }

  function serviceWithDelete() {
    let record: MemoryRecord | undefined = { id: ID, content: 'one', version: 1, tags: [] };
    const calls: string[] = [];
    const client = {
      getMemory: async () => {
        if (!record) {
          throw new ApiError({ kind: 'not_found', status: 404, code: 'not_found', message: 'gone' });
        }
        return { ...record };
      },
      updateMemory: async (_id: string, body: { content: string; version: number }) => {
        calls.push('PATCH');
        record = { ...record!, content: body.content, version: body.version + 1 };
        return { ...record };
      },
      deleteMemory: async (id: string) => {
        calls.push('DELETE');
        record = undefined;
        return { id, deleted: true };
      },
    } as unknown as ApiClient;
    return { client, calls, current: () => record };
  }

  it('a write from elsewhere shows the entry and its new text; No sends nothing and fails the write', async () => {
    const service = serviceWithDelete();
    const { consent, asked } = asking(false);
    const fs = new MemoryFileSystem(() => service.client, consent);
    await assert.rejects(fs.writeFile(uri, bytes('planted')), /not confirmed/);
    assert.deepEqual(asked.write, [{ current: 'one', text: 'planted' }]);
    assert.deepEqual(service.calls, [], 'a write nobody confirmed was sent');
    assert.equal(service.current()?.content, 'one');
    fs.dispose();
  });

  it("a write from elsewhere that the person confirms is sent; the person's save is not asked about", async () => {
    const service = serviceWithDelete();
    const { consent, asked } = asking(true);
    const fs = new MemoryFileSystem(() => service.client, consent);
    await fs.writeFile(uri, bytes('two'));
    assert.equal(asked.write.length, 1);
    assert.equal(service.current()?.content, 'two');
    const saves = new MemoryFileSystem(() => service.client, { ...consent, isPersonSave: () => true });
    await saves.writeFile(uri, bytes('three'));
    assert.equal(asked.write.length, 1, "the person's own save was asked about");
    assert.equal(service.current()?.content, 'three');
    fs.dispose();
    saves.dispose();
  });

  it('a delete through the file system asks; No leaves the entry, Delete removes it', async () => {
    const service = serviceWithDelete();
    const no = asking(false);
    const fs = new MemoryFileSystem(() => service.client, no.consent);
    await assert.rejects(fs.delete(uri), /not deleted/);
    assert.deepEqual(no.asked.delete, [ID]);
    assert.deepEqual(service.calls, [], 'a delete nobody confirmed was sent');
    const yes = asking(true);
    const confirmed = new MemoryFileSystem(() => service.client, yes.consent);
    const gone: string[] = [];
    confirmed.onDidDelete((id) => gone.push(id));
    await confirmed.delete(uri);
    assert.deepEqual(service.calls, ['DELETE']);
    assert.deepEqual(gone, [ID]);
    fs.dispose();
    confirmed.dispose();
  });

  it("a write is the person's save only of an open document, with its exact text", () => {
    const doc = (text: string) => ({ getText: () => text });
    assert.equal(isSaveOfOpenDocument('x', doc('x')), true);
    assert.equal(isSaveOfOpenDocument('planted', doc('x')), false, "another text than the document's");
    assert.equal(isSaveOfOpenDocument('x', undefined), false, 'no open document');
  });

  it('the question names the whole entry: key, every tag, every line of its text', () => {
    const t = (m: string, ...a: unknown[]) => m.replace(/\{(\d+)\}/g, (_, i: string) => String(a[Number(i)]));
    const content = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n');
    const tags = Array.from({ length: 30 }, (_, i) => `tag${i}`);
    const lines = wholeEntryLines({ id: ID, content, tags, version: 3 }, t);
    assert.equal(lines[0], `Memory: ${ID}`);
    assert.ok(lines.includes(`Tags: ${tags.map((x) => `#${x}`).join(' ')}`), 'a tag was left out');
    assert.equal(lines[lines.length - 1], 'line 499', 'the text was cut');
    assert.equal(lines.filter((l) => l.startsWith('line ')).length, 500);
  });
});
