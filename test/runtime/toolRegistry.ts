// Tools: the registry the agent calls from (seeded once), and one invocation record per tool call.
import { notFound } from './httpErrors';
import {
  type InvocationRecord,
  type InvocationStatus,
  MAX_INVOCATION_OUTPUT_BYTES,
  newId,
  nowTimestamp,
  type ToolRecord,
} from './records';
import { RecordStore } from './recordStore';

const object = (properties: Record<string, unknown>, required: string[]): Record<string, unknown> => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const str = (description: string): Record<string, unknown> => ({ type: 'string', description });

/** The registry: the built-in agent's own tools and two that come with connectors. */
export function seedTools(connectorIds: { github?: string; slack?: string }): ToolRecord[] {
  const tool = (
    name: string,
    description: string,
    input_schema: Record<string, unknown>,
    requires_approval = false,
    connector_id?: string,
  ): ToolRecord => ({
    id: `tool_${name}`,
    object: 'tool',
    name,
    description,
    input_schema,
    requires_approval,
    ...(connector_id ? { connector_id } : {}),
  });
  return [
    tool(
      'read_file',
      'Reads an attached document as UTF-8 text.',
      object({ file_id: str('The id of the attached file.') }, ['file_id']),
    ),
    tool(
      'count_words',
      'Counts the words of a document.',
      object({ file_id: str('The id of the attached file.') }, ['file_id']),
    ),
    tool(
      'extract_headings',
      'Lists the Markdown headings of a document.',
      object({ file_id: str('The id of the attached file.') }, ['file_id']),
    ),
    tool(
      'edit_files',
      'Writes revised copies of the attached documents and a unified diff of the changes.',
      object(
        {
          files: { type: 'array', items: { type: 'string' }, description: 'The documents to revise.' },
          patch: str('The name of the patch artifact.'),
        },
        ['files'],
      ),
      true,
    ),
    tool(
      'write_file',
      'Writes the report and the JSON summary as artifacts.',
      object({ paths: { type: 'array', items: { type: 'string' } } }, ['paths']),
      true,
    ),
    tool(
      'recall_memory',
      'Finds what the agent remembers about a subject.',
      object({ query: str('What to look for.') }, ['query']),
    ),
    tool(
      'write_memory',
      'Remembers a fact for later runs.',
      object({ content: str('What to remember.'), tags: { type: 'array', items: { type: 'string' } } }, ['content']),
    ),
    tool(
      'create_issue',
      'Opens an issue in a GitHub repository.',
      object({ repository: str('owner/name'), title: str('The title.'), body: str('Markdown.') }, [
        'repository',
        'title',
      ]),
      true,
      connectorIds.github,
    ),
    tool(
      'post_message',
      'Posts a message to a Slack channel.',
      object({ channel: str('#channel'), text: str('The message.') }, ['channel', 'text']),
      true,
      connectorIds.slack,
    ),
  ];
}

export class ToolRegistry {
  readonly tools: RecordStore<ToolRecord>;
  readonly invocations: RecordStore<InvocationRecord>;
  /** The open invocation of each run (a tool call whose outcome is not recorded yet). */
  private readonly open = new Map<string, string>();

  constructor(toolsDir: string, invocationsDir: string, seed: () => ToolRecord[]) {
    this.tools = new RecordStore(toolsDir);
    this.invocations = new RecordStore(invocationsDir);
    if (this.tools.all().length === 0) {
      for (const tool of seed().reverse()) {
        this.tools.insert(tool);
      }
    }
  }

  requireTool(id: string): ToolRecord {
    const found = this.tools.get(id);
    if (!found) {
      throw notFound(`No tool with id ${id}.`, 'id');
    }
    return found;
  }

  requireInvocation(id: string): InvocationRecord {
    const found = this.invocations.get(id);
    if (!found) {
      throw notFound(`No tool invocation with id ${id}.`, 'id');
    }
    return found;
  }

  /** A tool.called event is about to be logged at `sequence`: the previous call of the run is done, this one starts. */
  begin(
    runId: string,
    stepId: string,
    tool: string,
    args: Record<string, unknown>,
    sequence: number,
  ): InvocationRecord {
    this.finish(runId, 'succeeded');
    const record = this.invocations.insert({
      id: newId('inv'),
      object: 'tool_invocation',
      tool,
      run_id: runId,
      step_id: stepId,
      sequence,
      arguments: args,
      status: 'running',
      started_at: nowTimestamp(),
    });
    this.open.set(runId, record.id);
    return record;
  }

  /** The observation that follows a call is its output (cut at 1 MiB). */
  observe(runId: string, stepId: string, output: string): void {
    const id = this.open.get(runId);
    const record = id ? this.invocations.get(id) : undefined;
    if (!record || record.step_id !== stepId) {
      return;
    }
    const bytes = Buffer.from(output, 'utf8');
    const truncated = bytes.length > MAX_INVOCATION_OUTPUT_BYTES;
    this.invocations.update(record.id, {
      output: truncated ? bytes.subarray(0, MAX_INVOCATION_OUTPUT_BYTES).toString('utf8') : output,
      ...(truncated ? { output_truncated: true } : {}),
    });
    this.finish(runId, 'succeeded');
  }

  /** Settles the run's open invocation, if any. */
  finish(runId: string, status: Exclude<InvocationStatus, 'running'>, errorMessage?: string): void {
    const id = this.open.get(runId);
    if (!id) {
      return;
    }
    this.open.delete(runId);
    const record = this.invocations.get(id);
    if (!record || record.status !== 'running') {
      return;
    }
    const completed = new Date();
    this.invocations.update(id, {
      status,
      completed_at: completed.toISOString(),
      duration_ms: Math.max(0, completed.getTime() - Date.parse(record.started_at)),
      ...(errorMessage ? { error: { message: errorMessage } } : {}),
    });
  }
}
