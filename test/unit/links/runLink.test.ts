// Run links: built for any editor scheme, read back from the editor's form and from the https
// callback a browser-hosted editor makes of it; everything else is refused with a reason.
import * as assert from 'node:assert/strict';
import {
  checkRunLink,
  EXTENSION_ID,
  formatRunLink,
  parseRunLinkText,
  parseSequence,
  runLinkParts,
} from '../../../src/links/runLink';

const RUN = 'run_abc123';

describe('links/runLink', () => {
  it("builds vscode://agent-runtime.agent-runtime/run/<id>#<sequence> for the editor's scheme", () => {
    assert.equal(EXTENSION_ID, 'agent-runtime.agent-runtime');
    assert.equal(
      formatRunLink('vscode', { runId: RUN, sequence: 42 }),
      `vscode://agent-runtime.agent-runtime/run/${RUN}#42`,
    );
    assert.equal(formatRunLink('code-oss', { runId: RUN }), `code-oss://agent-runtime.agent-runtime/run/${RUN}`);
    assert.throws(() => formatRunLink('vscode', { runId: '../run_x' }));
    assert.throws(() => formatRunLink('vscode', { runId: RUN, sequence: 0 }));
    assert.throws(() => formatRunLink('java script', { runId: RUN }));
  });

  it('reads back what it builds, in every editor scheme', () => {
    for (const scheme of ['vscode', 'vscode-insiders', 'code-oss', 'vscodium']) {
      assert.deepEqual(parseRunLinkText(formatRunLink(scheme, { runId: RUN, sequence: 7 })), {
        ok: true,
        target: { runId: RUN, sequence: 7 },
      });
    }
    assert.deepEqual(parseRunLinkText(formatRunLink('vscode', { runId: RUN })), { ok: true, target: { runId: RUN } });
  });

  it("checks a handled link's parts: ours, /run/<run id>, an optional positive sequence", () => {
    const ok = runLinkParts({ runId: RUN, sequence: 3 });
    assert.deepEqual(checkRunLink(ok), { ok: true, target: { runId: RUN, sequence: 3 } });
    assert.deepEqual(checkRunLink({ ...ok, authority: 'Agent-Runtime.Agent-Runtime' }), {
      ok: true,
      target: { runId: RUN, sequence: 3 },
    });
    assert.deepEqual(checkRunLink({ ...ok, path: `/run/${RUN}/` }), { ok: true, target: { runId: RUN, sequence: 3 } });
    const problem = (parts: Partial<typeof ok>) => {
      const result = checkRunLink({ ...ok, ...parts });
      return result.ok ? 'accepted' : result.problem;
    };
    assert.equal(problem({ authority: 'other.extension' }), 'notOurs');
    assert.equal(problem({ authority: `evil@${EXTENSION_ID}` }), 'notOurs');
    assert.equal(problem({ authority: `${EXTENSION_ID}:8080` }), 'notOurs');
    assert.equal(problem({ path: `/task/${RUN}` }), 'notARunLink');
    assert.equal(problem({ path: `/run/${RUN}/events` }), 'notARunLink');
    // vscode.Uri decodes %2F before the handler sees it: a run id cannot carry a separator.
    assert.equal(problem({ path: '/run/run_a/../../x' }), 'notARunLink');
    assert.equal(problem({ path: '/run/..' }), 'badRunId');
    assert.equal(problem({ path: '/run/task_1' }), 'badRunId');
    assert.equal(problem({ path: '/run/run_a%2Fb' }), 'badRunId');
    assert.equal(problem({ path: `/run/run_${'a'.repeat(10_000)}` }), 'tooLong');
    for (const fragment of ['0', '-1', '1.5', '1e3', '007', ' 4', 'abc', '99999999999999999']) {
      assert.equal(problem({ fragment }), 'badSequence', fragment);
    }
  });

  it('refuses pasted links of another host, authority or shape', () => {
    const problem = (text: string) => {
      const result = parseRunLinkText(text);
      return result === undefined ? 'not a link' : result.ok ? 'accepted' : result.problem;
    };
    assert.equal(problem(`vscode://other.extension/run/${RUN}#1`), 'notOurs');
    assert.equal(problem(`vscode://user@${EXTENSION_ID}/run/${RUN}`), 'notOurs');
    assert.equal(problem(`vscode://${EXTENSION_ID}:99/run/${RUN}`), 'notOurs');
    assert.equal(problem(`https://example.com/run/${RUN}`), 'notOurs');
    assert.equal(problem(`vscode://${EXTENSION_ID}/run/run_a%2Fb`), 'notARunLink');
    assert.equal(problem(`vscode://${EXTENSION_ID}/run/run_a%2`), 'badRunId');
    assert.equal(problem(`vscode://${EXTENSION_ID}/run/${RUN}#%zz`), 'badSequence');
    assert.equal(problem(`vscode://${EXTENSION_ID}/run/../../etc/passwd`), 'notARunLink');
    assert.equal(problem(`vscode://${EXTENSION_ID}/run/${'a'.repeat(10_000)}`), 'tooLong');
    assert.equal(problem(RUN), 'not a link');
  });

  it('reads the https callback of a browser-hosted editor (code-server), only for our authority', () => {
    const callback = (authority: string, path: string, fragment?: string) => {
      const q = new URLSearchParams({
        'vscode-reqid': '1',
        'vscode-scheme': 'code-oss',
        'vscode-authority': authority,
        'vscode-path': path,
      });
      if (fragment !== undefined) {
        q.set('vscode-fragment', fragment);
      }
      return `https://ide.example.test/callback?${q.toString()}`;
    };
    assert.deepEqual(parseRunLinkText(callback(EXTENSION_ID, `/run/${RUN}`, '12')), {
      ok: true,
      target: { runId: RUN, sequence: 12 },
    });
    assert.deepEqual(parseRunLinkText(callback('someone.else', `/run/${RUN}`, '12')), {
      ok: false,
      problem: 'notOurs',
    });
    assert.deepEqual(parseRunLinkText(callback(EXTENSION_ID, '/run/run_x/../../y')), {
      ok: false,
      problem: 'notARunLink',
    });
  });

  it('reads a callback whose whole query was percent-encoded (as vscode.Uri.toString() writes it)', () => {
    // Seen from code-server 4.100's asExternalUri(...).toString().
    const encoded = `http://127.0.0.1:35093/stable-409c/callback?vscode-reqid%3D1%26vscode-scheme%3Dcode-oss%26vscode-authority%3D${EXTENSION_ID}%26vscode-path%3D%252Frun%252F${RUN}%26vscode-fragment%3D5`;
    assert.deepEqual(parseRunLinkText(encoded), { ok: true, target: { runId: RUN, sequence: 5 } });
    assert.deepEqual(parseRunLinkText(encoded.replace(EXTENSION_ID, 'someone.else')), {
      ok: false,
      problem: 'notOurs',
    });
  });

  it('takes only plain positive whole numbers as sequences', () => {
    assert.equal(parseSequence('1'), 1);
    assert.equal(parseSequence('9007199254740991'), 9007199254740991);
    assert.equal(parseSequence('9007199254740993'), undefined);
    assert.equal(parseSequence('0'), undefined);
    assert.equal(parseSequence('+1'), undefined);
  });
});
