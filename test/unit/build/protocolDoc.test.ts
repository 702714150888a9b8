// docs/PROTOCOL.md cannot fall behind the client: every request path written in src/api/ and
// every run event name the client knows must be named on that page. Paths are compared with
// their ids normalised (`/runs/${pathSegment(id)}/cancel` in code = `/v1/runs/{id}/cancel` in the doc).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SPEC_EVENT_NAMES } from '../../../src/runEvents/runModel';
import { TERMINAL_EVENTS } from '../../../src/runEvents/runStatus';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const DOC = path.join(ROOT, 'docs', 'PROTOCOL.md');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...sourceFiles(full));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      out.push(full);
    }
  }
  return out;
}

function read(file: string): string {
  return fs.readFileSync(file, 'utf8');
}

// A segment is a lower-case word or one `${...}` expression; the whole literal is a path below /v1.
const PATH_LITERAL = /(['`])(\/(?:[a-z_]+|\$\{[^}`']*\})(?:\/(?:[a-z_]+|\$\{[^}`']*\}))*)\1/g;

/** `/runs/${pathSegment(id)}/cancel` -> `/v1/runs/{}/cancel`. */
function normaliseCodePath(literal: string): string {
  return `/v1${literal.replace(/\$\{[^}]*\}/g, '{}')}`;
}

/** Every request path of the client: the path literals of src/api/ (network/ only opens sockets). */
function clientPaths(): Map<string, string> {
  const found = new Map<string, string>();
  const apiDir = path.join(ROOT, 'src', 'api');
  for (const file of sourceFiles(apiDir)) {
    if (path.relative(apiDir, file).startsWith('network')) {
      continue;
    }
    for (const match of read(file).matchAll(PATH_LITERAL)) {
      if (match[2] === '/v1') {
        continue; // the version prefix itself, not a request path
      }
      const normalised = normaliseCodePath(match[2]);
      if (!found.has(normalised)) {
        found.set(normalised, path.relative(ROOT, file));
      }
    }
  }
  return found;
}

/** The /v1 paths the doc names, `{anything}` normalised to `{}`. */
function docPaths(doc: string): Set<string> {
  const paths = new Set<string>();
  for (const match of doc.matchAll(/\/v1(?:\/[A-Za-z0-9_{}-]+)+/g)) {
    paths.add(match[0].replace(/\{[^}]*\}/g, '{}'));
  }
  return paths;
}

const EVENT_NAME = String.raw`[a-z]+(?:_[a-z]+)*\.[a-z]+(?:_[a-z]+)*`;
// Dotted literals in these files that are not run events: theme colour and setting ids.
const NOT_EVENT_NAMES = /^(charts|testing|editor|terminal|http)\./;

/** Every run event name the client knows: the constants, the decoder's table, and every comparison in src/. */
function clientEventNames(): Map<string, string> {
  const found = new Map<string, string>();
  const add = (name: string, where: string) => {
    if (!NOT_EVENT_NAMES.test(name) && !found.has(name)) {
      found.set(name, where);
    }
  };
  for (const name of [...SPEC_EVENT_NAMES, ...TERMINAL_EVENTS]) {
    add(name, 'src/runEvents (constants)');
  }
  const eventFiles = [
    ...sourceFiles(path.join(ROOT, 'src', 'runEvents')),
    path.join(ROOT, 'src', 'api', 'runEventDecoding.ts'),
    path.join(ROOT, 'src', 'api', 'types.ts'),
  ];
  for (const file of eventFiles) {
    for (const match of read(file).matchAll(new RegExp(`'(${EVENT_NAME})'`, 'g'))) {
      add(match[1], path.relative(ROOT, file));
    }
  }
  // Anywhere else in src/: a name a switch or a comparison acts on.
  const compared = new RegExp(`(?:case|===|!==)\\s*'(${EVENT_NAME})'`, 'g');
  for (const file of sourceFiles(path.join(ROOT, 'src'))) {
    for (const match of read(file).matchAll(compared)) {
      add(match[1], path.relative(ROOT, file));
    }
  }
  return found;
}

function mentions(doc: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_.])${escaped}(?![A-Za-z0-9_])`).test(doc);
}

describe('docs/PROTOCOL.md covers what the client uses', () => {
  const doc = read(DOC);

  it('finds the client paths and event names it checks (the extractors still work)', () => {
    const paths = clientPaths();
    for (const known of ['/v1/files', '/v1/files/{}/content', '/v1/runs/{}/cancel', '/v1/connectors/{}/grants/{}']) {
      assert.ok(paths.has(known), `the path extractor no longer finds ${known} in src/api/`);
    }
    const events = clientEventNames();
    for (const known of ['plan.created', 'run.cancelled', 'approval.requested', 'memory.recalled', 'usage.updated']) {
      assert.ok(events.has(known), `the event name extractor no longer finds ${known} in src/`);
    }
    assert.ok(!events.has('charts.blue'), 'a theme colour id was taken for an event name');
  });

  it('names every request path of src/api/', () => {
    const documented = docPaths(doc);
    const missing = [...clientPaths()].filter(([p]) => !documented.has(p)).map(([p, file]) => `${p} (${file})`);
    assert.deepEqual(missing, [], `docs/PROTOCOL.md does not name these request paths: ${missing.join(', ')}`);
  });

  it('names every run event the client knows', () => {
    const missing = [...clientEventNames()]
      .filter(([name]) => !mentions(doc, name))
      .map(([name, file]) => `${name} (${file})`);
    assert.deepEqual(missing, [], `docs/PROTOCOL.md does not name these run events: ${missing.join(', ')}`);
  });
});
