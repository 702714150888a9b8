// The words of the Tools, Connectors and Webhooks surfaces: documents with hidden characters made
// visible, a truncated output that says so, revoke questions that name exactly what goes.
import * as assert from 'node:assert/strict';
import {
  deliverySentence,
  invocationDocument,
  revokeLines,
  toolDescription,
  toolDocument,
  toolLabel,
  webhookUrlProblem,
} from '../../../src/agentAccess/accessText';
import type { ConnectorRecord } from '../../../src/api/resourceTypes';
import { untranslated as t } from '../../../src/common/translate';
import { BIDI_OVERRIDE, COMMAND_LINK } from '../../runtime/hostile';

describe('agentAccess text', () => {
  it('shows a tool as a document with its schema; rows are inert', () => {
    const tool = {
      id: 'tool_x',
      name: `x ${COMMAND_LINK}`,
      description: `Does ${BIDI_OVERRIDE}`,
      requires_approval: true,
      input_schema: { type: 'object', properties: { a: { type: 'string' } } },
    };
    const doc = toolDocument(tool, t);
    assert.match(doc, /## Input schema\n\n```json\n\{\n {2}"type": "object"/);
    assert.ok(!doc.includes('\u202e'), 'bidi made visible');
    assert.ok(!toolLabel(tool, t).includes(']('));
    assert.match(toolDescription(tool, t), /^needs approval · /);
  });

  it('an invocation document has arguments, status, duration and says when the output was cut', () => {
    const doc = invocationDocument(
      {
        id: 'inv_1',
        tool: 'read_file',
        status: 'succeeded',
        run_id: 'run_1',
        sequence: 4,
        step_id: 'step_1',
        arguments: { file_id: 'file_1' },
        duration_ms: 12,
        output: 'hello',
        output_truncated: true,
      },
      t,
    );
    assert.match(doc, /Status: succeeded/);
    assert.match(doc, /Run: run_1 #4/);
    assert.match(doc, /Duration: 12 ms/);
    assert.match(doc, /"file_id": "file_1"/);
    assert.match(doc, /\(The service cut this output: it is longer than what is shown\.\)\n\nhello/);
    const huge = invocationDocument({ id: 'inv_2', output: 'x'.repeat(3 * 1024 * 1024), output_truncated: false }, t);
    assert.ok(huge.length < 1.1 * 1024 * 1024, 'bounded');
  });

  it('a revoke question names the connector, its account and exactly the grants that go', () => {
    const connector: ConnectorRecord = {
      id: 'conn_1',
      name: 'GitHub',
      account: 'octo-org',
      grants: [
        { id: 'grant_1', scope: 'issues:write', resource: 'octo-org/site' },
        { id: 'grant_2', scope: `contents:read ${COMMAND_LINK}` },
      ],
    };
    assert.deepEqual(revokeLines(connector, connector.grants[0], t), [
      'Connector: GitHub (octo-org)',
      'Grant that goes:',
      '• issues:write on octo-org/site',
    ]);
    const whole = revokeLines(connector, undefined, t);
    assert.equal(whole.length, 4);
    assert.ok(!whole[3].includes(']('), whole[3]);
  });

  it('a test delivery says status and time, or the error; webhook URLs must be https', () => {
    assert.equal(
      deliverySentence({ status_code: 204, duration_ms: 31 }, t),
      'Test delivery: the receiver answered 204 in 31 ms.',
    );
    assert.equal(
      deliverySentence({ duration_ms: 5, error: { message: 'refused' } }, t),
      'Test delivery failed after 5 ms: refused',
    );
    assert.equal(webhookUrlProblem('http://example.com', t), 'A webhook URL must start with https://.');
    assert.equal(webhookUrlProblem('https://example.com/h', t), undefined);
    assert.ok(webhookUrlProblem('not a url', t));
  });
});
