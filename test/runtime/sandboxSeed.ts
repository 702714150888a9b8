// Example data for a fresh sandbox: a few files, one finished task and one run waiting for approval.
const WELCOME = `# Welcome to the Agent Runtime sandbox

This runtime runs on your machine and speaks the Agent Runtime API.

## What you can do
Upload files, create tasks that attach them, watch the run's events live,
and open the artifacts the run writes.

## How the built-in agent works
It reads every attached document, counts its lines and words, lists its
headings, and writes a Markdown report and a JSON summary.
`;

const MEETING_NOTES = `# Weekly sync

## Decisions
- Ship the upload flow first.
- Keep the run panel readable with thousands of events.

## Open questions
- Which artifacts should open in an editor, and which should be saved?
`;

const SALES_CSV = `region,quarter,revenue
north,Q1,120000
south,Q1,98000
north,Q2,134000
south,Q2,101500
`;

/**
 * The approvalTimeoutMs to seed with (the seeding runtime's option), so that someone opening the
 * sandbox days later still finds the seeded run waiting.
 */
export const SEEDED_APPROVAL_TIMEOUT_MS = 30 * 24 * 60 * 60 * 1000;

interface Uploaded {
  id: string;
}

export interface SeededSandbox {
  taskId: string;
  runId: string;
  /** The run that waits for a person to approve its edits. */
  waitingRunId: string;
}

export async function seedSandbox(baseUrl: string, apiKey: string): Promise<SeededSandbox> {
  const auth = { Authorization: `Bearer ${apiKey}` };
  const upload = async (filename: string, purpose: string, type: string, content: string): Promise<Uploaded> => {
    const form = new FormData();
    form.append('purpose', purpose);
    form.append('file', new Blob([content], { type }), filename);
    const res = await fetch(`${baseUrl}/v1/files`, { method: 'POST', headers: auth, body: form });
    if (!res.ok) {
      throw new Error(`seeding ${filename} failed with HTTP ${res.status}`);
    }
    return (await res.json()) as Uploaded;
  };
  const welcome = await upload('welcome.md', 'task_input', 'text/markdown', WELCOME);
  const notes = await upload('meeting-notes.md', 'task_input', 'text/markdown', MEETING_NOTES);
  await upload('sales.csv', 'dataset', 'text/csv', SALES_CSV);

  const createTask = async (
    idempotencyKey: string,
    objective: string,
    fileIds: string[],
  ): Promise<{ id: string; run_id: string }> => {
    const res = await fetch(`${baseUrl}/v1/tasks`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify({ objective, attachments: fileIds.map((fileId) => ({ type: 'document', fileId })) }),
    });
    if (!res.ok) {
      throw new Error(`seeding the task "${objective}" failed with HTTP ${res.status}`);
    }
    return (await res.json()) as { id: string; run_id: string };
  };

  const task = await createTask('sandbox-seed-task', 'Summarise the welcome guide and the meeting notes', [
    welcome.id,
    notes.id,
  ]);
  // Follow the run's events to its end so the seeded task is finished when the sandbox opens.
  const events = await fetch(`${baseUrl}/v1/runs/${task.run_id}/events`, {
    headers: { ...auth, Accept: 'text/event-stream' },
  });
  await events.text();

  // "ask before" makes the built-in agent request approval before it writes anything.
  const waiting = await createTask(
    'sandbox-seed-approval',
    'Tidy up the meeting notes, and ask before writing any file',
    [notes.id],
  );
  await untilStatus(baseUrl, auth, waiting.run_id, 'awaiting_approval');
  return { taskId: task.id, runId: task.run_id, waitingRunId: waiting.run_id };
}

async function untilStatus(
  baseUrl: string,
  auth: Record<string, string>,
  runId: string,
  wanted: string,
): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const res = await fetch(`${baseUrl}/v1/runs/${runId}`, { headers: auth });
    const run = (await res.json()) as { status: string };
    if (run.status === wanted) {
      return;
    }
    if (['completed', 'failed', 'cancelled'].includes(run.status)) {
      throw new Error(`the seeded run ${runId} ended (${run.status}) before ${wanted}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the seeded run ${runId} never reached ${wanted}`);
}
