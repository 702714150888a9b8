// Memory: what the agent knows. Versioned entries, a word-overlap search, project and tag filters.
import { badRequest, conflict, notFound } from './httpErrors';
import { type ListEnvelope, pageOf, type PageParams } from './pagination';
import { MAX_MEMORY_BYTES, type MemoryRecord, newId, nowTimestamp } from './records';
import { RecordStore } from './recordStore';

const MAX_TAGS = 20;
const MAX_TAG_CHARS = 64;

export interface MemoryFilter {
  query?: string;
  projectId?: string;
  tags?: string[];
}

/** The words of a query or an entry that count for relevance (lower case, 3 letters or more). */
function wordsOf(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}_]+/u)
      .filter((w) => w.length >= 3),
  );
}

/** 0..1: the share of the query's words found in the entry's content and tags (2 decimals). */
export function relevance(record: MemoryRecord, query: string): number {
  const wanted = wordsOf(query);
  if (wanted.size === 0) {
    return 0;
  }
  const have = wordsOf(`${record.content} ${record.tags.join(' ')}`);
  let found = 0;
  for (const word of wanted) {
    if (have.has(word)) {
      found++;
    }
  }
  return Math.round((found / wanted.size) * 100) / 100;
}

export function validateContent(content: unknown, required: boolean): string | undefined {
  if (content === undefined && !required) {
    return undefined;
  }
  if (typeof content !== 'string' || content.trim() === '') {
    throw badRequest(
      'content must be a non-empty string.',
      'content',
      content === undefined ? 'missing_parameter' : 'invalid_parameter',
    );
  }
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > MAX_MEMORY_BYTES) {
    throw badRequest(
      `content is ${bytes} bytes; a memory holds at most ${MAX_MEMORY_BYTES} bytes.`,
      'content',
      'content_too_large',
    ).with({ limit: MAX_MEMORY_BYTES });
  }
  return content;
}

export function validateTags(tags: unknown): string[] | undefined {
  if (tags === undefined || tags === null) {
    return undefined;
  }
  if (
    !Array.isArray(tags) ||
    tags.length > MAX_TAGS ||
    tags.some((t) => typeof t !== 'string' || t.trim() === '' || t.length > MAX_TAG_CHARS)
  ) {
    throw badRequest(
      `tags must be an array of at most ${MAX_TAGS} non-empty strings of at most ${MAX_TAG_CHARS} characters.`,
      'tags',
    );
  }
  return [...new Set(tags as string[])];
}

export class MemoryStore {
  readonly store: RecordStore<MemoryRecord>;
  /** Order of the last change in this process: breaks ties between equal updated_at (same millisecond). */
  private readonly touched = new Map<string, number>();
  private clock = 0;

  constructor(dir: string) {
    this.store = new RecordStore(dir);
  }

  get(id: string): MemoryRecord | undefined {
    return this.store.get(id);
  }

  require(id: string): MemoryRecord {
    const found = this.store.get(id);
    if (!found) {
      throw notFound(`No memory with id ${id}.`, 'id');
    }
    return found;
  }

  create(content: string, tags: string[] = [], projectId?: string, source?: MemoryRecord['source']): MemoryRecord {
    const now = nowTimestamp();
    const id = newId('mem');
    this.touched.set(id, ++this.clock);
    return this.store.insert({
      id,
      object: 'memory',
      content,
      tags,
      ...(projectId ? { project_id: projectId } : {}),
      ...(source ? { source } : {}),
      version: 1,
      created_at: now,
      updated_at: now,
    });
  }

  /** 409 version_conflict (with the current record in error.memory) when `version` is not the current one. */
  update(id: string, version: number, change: { content?: string; tags?: string[] }): MemoryRecord {
    const current = this.require(id);
    if (version !== current.version) {
      throw conflict(
        'version_conflict',
        `The memory changed meanwhile: it is at version ${current.version}, not ${version}.`,
        'version',
      ).with({ memory: current });
    }
    this.touched.set(id, ++this.clock);
    return this.store.update(id, { ...change, version: current.version + 1, updated_at: nowTimestamp() });
  }

  delete(id: string): void {
    this.require(id);
    this.store.hide(id);
  }

  /**
   * Newest updated first; with a query, by relevance (score > 0 only, each item carrying `score`).
   * Deleted entries keep their place, so a cursor pointing at one still works.
   */
  list(filter: MemoryFilter, params: PageParams): ListEnvelope<MemoryRecord> {
    const all = [...this.store.newestFirst()];
    const query = filter.query?.trim() ? filter.query : undefined;
    const scored = all.map((entry, order) => ({ ...entry, order, score: query ? relevance(entry.record, query) : 0 }));
    const touched = (id: string): number => this.touched.get(id) ?? -1;
    scored.sort(
      (a, b) =>
        b.score - a.score ||
        b.record.updated_at.localeCompare(a.record.updated_at) ||
        touched(b.record.id) - touched(a.record.id) ||
        a.order - b.order,
    );
    const include = (r: MemoryRecord): boolean =>
      (filter.projectId === undefined || r.project_id === filter.projectId) &&
      (filter.tags ?? []).every((tag) => r.tags.includes(tag)) &&
      (query === undefined || relevance(r, query) > 0);
    const page = pageOf(scored, params, include);
    if (query === undefined) {
      return page;
    }
    return { ...page, data: page.data.map((r) => ({ ...r, score: relevance(r, query) })) };
  }

  /** The agent's recall: up to `max` entries most relevant to `text`. */
  recall(text: string, max = 3): MemoryRecord[] {
    return this.list({ query: text }, { limit: max }).data;
  }
}
