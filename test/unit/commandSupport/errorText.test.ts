// describeErrorForUser: the API layer's error sentences said through vscode.l10n.t. With no
// bundle it says exactly what describeError says; through a stand-in l10n.t every kind's sentence
// and every wording of the API layer is looked up; with the real German bundle none is left in English.
import '../views/vscodeStub';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { API_ERROR_KINDS } from '../../../src/api/errors';
import { describeError, errorSentence, errorSentenceParts } from '../../../src/api/errorSentences';
import { describeErrorForUser } from '../../../src/commandSupport/errorText';
import { fill } from '../../../src/common/format';
import { repoRoot } from '../../e2e/harness/paths';
import { apiWorded, byKind, errorSamples as samples, ORIGIN, steeringConflicts, transport } from '../api/errorSamples';
import { l10n } from '../views/vscodeStub';

/** Kinds whose sentence is the message itself (the API layer's or the server's words). */
const MESSAGE_ONLY: ReadonlySet<string> = new Set(['proxy', 'validation', 'insecure']);
const CLOSERS = new Set(['{0}.', '{0} (request id {1}).']);

describe('commandSupport/errorText', () => {
  const original = l10n.t;
  afterEach(() => {
    l10n.t = original;
  });

  it('with no bundle loaded says exactly what describeError says, for every kind and wording', () => {
    for (const err of samples()) {
      assert.equal(describeErrorForUser(err), describeError(err), String((err as Error).message ?? err));
    }
  });

  it('is the one builder (errorSentence) through vscode.l10n.t: the same messages asked for, the same sentence', () => {
    for (const err of samples()) {
      const viaL10n: string[] = [];
      const viaBuilder: string[] = [];
      const say =
        (used: string[]) =>
        (message: string, ...args: unknown[]) => (used.push(message), `«${fill(message, ...args.map(String))}»`);
      l10n.t = say(viaL10n);
      const sentence = describeErrorForUser(err);
      assert.equal(sentence, errorSentence(err, say(viaBuilder)));
      assert.deepEqual(viaL10n, viaBuilder);
      assert.ok(viaL10n.length > 0, `${sentence} went through vscode.l10n.t`);
    }
  });

  it('every ApiError kind gets its sentence through vscode.l10n.t', () => {
    for (const kind of API_ERROR_KINDS) {
      for (const withStatus of [true, false]) {
        const used: string[] = [];
        l10n.t = (message: string, ...args: unknown[]) => {
          used.push(message);
          return `«${fill(message, ...(args as string[]))}»`;
        };
        const err = byKind(kind, withStatus);
        const sentence = describeErrorForUser(err);
        assert.ok(sentence.startsWith('«'), `${kind}: ${sentence}`);
        if (MESSAGE_ONLY.has(kind)) {
          assert.ok(sentence.includes('The server said no'), `${kind} keeps the message: ${sentence}`);
        } else {
          assert.ok(
            used.some((m) => !CLOSERS.has(m)),
            `${kind} (status ${withStatus}) has its own translated sentence; used ${JSON.stringify(used)}`,
          );
        }
      }
    }
  });

  it('a steering 409 states its fact through its own sentence, not the advice to retry', () => {
    for (const err of steeringConflicts()) {
      const used: string[] = [];
      l10n.t = (message: string, ...args: unknown[]) => {
        used.push(message);
        return fill(message, ...(args as string[]));
      };
      describeErrorForUser(err);
      assert.ok(!used.some((m) => m.includes('wait a moment')), `${err.code}: ${JSON.stringify(used)}`);
      assert.equal(new Set(used.filter((m) => !CLOSERS.has(m))).size, 1, `${err.code}: ${JSON.stringify(used)}`);
    }
  });

  it('every wording of the API layer is looked up, not passed on in English', () => {
    for (const err of apiWorded()) {
      assert.ok(err.detail, `${err.message} carries its wording`);
      const used: string[] = [];
      l10n.t = (message: string, ...args: unknown[]) => {
        used.push(message);
        return fill(message.toUpperCase(), ...(args as string[]));
      };
      const english = errorSentenceParts(err).detail;
      const sentence = describeErrorForUser(err);
      assert.ok(!sentence.includes(english), `${err.detail.id}: "${sentence}" still holds "${english}"`);
    }
  });

  it('with the German bundle no sentence is left in English and the address, status and request id stay', () => {
    const de = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'l10n', 'bundle.l10n.de.json'), 'utf8')) as Record<
      string,
      string
    >;
    l10n.t = (message: string, ...args: unknown[]) => fill(de[message] ?? message, ...(args as string[]));
    for (const err of samples()) {
      const english = describeError(err);
      const german = describeErrorForUser(err);
      const parts = errorSentenceParts(err);
      const messageOnly = MESSAGE_ONLY.has(parts.kind) || (parts.kind === 'connection' && parts.detailNamesFix);
      if (!(messageOnly && !parts.apiDetail)) {
        assert.notEqual(german, english, `not translated: ${english}`);
      }
      if (parts.requestId && parts.kind !== 'cancelled') {
        assert.ok(german.includes(parts.requestId), german);
      }
      const where = parts.apiDetail?.args[0];
      if (where !== undefined) {
        assert.ok(german.includes(where), german);
      }
    }
    assert.equal(
      describeErrorForUser(transport('ECONNREFUSED')),
      `Keine Verbindung zu ${ORIGIN} möglich (Verbindung abgelehnt); prüfen Sie die Adresse des Dienstes und Ihr Netzwerk.`,
    );
  });
});
