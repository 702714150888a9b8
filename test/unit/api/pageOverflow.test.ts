// A page keeps at most the page it asked for: a server answering a search for 20 with a quarter
// of a million records has the rest left out and counted, and a walk ends there as cut.
import * as assert from 'node:assert/strict';
import { pageCaps, paginate, startCount, takePage } from '../../../src/api/pagination';
import { parsePage } from '../../../src/api/parse';

const records = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `mem_${i}`, content: `entry ${i}` }));

describe('api/parse: a page larger than asked', () => {
  it('keeps the limit asked for and counts the rest, with a warning', () => {
    const warnings: string[] = [];
    const logger = { warn: (m: string) => warnings.push(m) } as never;
    const page = parsePage<{ id: string }>(
      { object: 'list', data: records(258_334), has_more: false },
      'memories',
      logger,
      20,
    );
    assert.equal(page.data.length, 20);
    assert.equal(page.overflow, 258_314);
    assert.equal(page.received, 258_334, 'the pager still counts every item sent');
    assert.ok(
      warnings.some((w) => /Kept 20 of 258334 memories/.test(w)),
      warnings.join('\n'),
    );
  });

  it("keeps at most 100 when no limit was asked; junk does not take a real record's place", () => {
    const data = [null, 42, ...records(150)];
    const page = parsePage<{ id: string }>({ object: 'list', data, has_more: false });
    assert.equal(page.data.length, 100);
    assert.equal(page.data[0].id, 'mem_0');
    assert.equal(page.overflow, 50);
    const exact = parsePage<{ id: string }>({ object: 'list', data: records(20) }, 'items', undefined, 20);
    assert.equal(exact.overflow, undefined, 'a full page is not an overflow');
  });

  it('a walk ends at an overflowing page as cut, never following its cursor', async () => {
    const step = takePage(
      { object: 'list', data: records(20), has_more: true, next_cursor: 'c2', overflow: 5 },
      startCount(),
      pageCaps(),
    );
    assert.equal(step.next, undefined);
    assert.equal(step.cut?.reason, 'items');
    let asked = 0;
    const walk = paginate<{ id: string }>(async () => {
      asked++;
      return { object: 'list', data: records(20), has_more: true, next_cursor: `c${asked}`, overflow: 1 };
    });
    let items = 0;
    for await (const _ of walk) {
      items++;
    }
    assert.equal(asked, 1);
    assert.equal(items, 20);
    assert.ok(walk.cut);
  });
});
