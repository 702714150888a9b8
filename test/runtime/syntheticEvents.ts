// Deterministic run events computed from their sequence alone, so a 1,000,000-event run costs no memory.
const TOOLS = ['read_file', 'count_words', 'extract_headings'];
const PHASES = 4;

export interface GeneratedEvent {
  event: string;
  dataJson: string;
}

/** Event `sequence` (1-based) of a synthetic run of `total` events (terminal event not included). */
export function syntheticEvent(sequence: number, total: number, unknownKinds: boolean): GeneratedEvent {
  if (sequence === 1) {
    const steps = Math.max(1, Math.ceil((total - 1) / PHASES));
    return { event: 'plan.created', dataJson: `{"sequence":1,"steps":${steps},"strategy":"synthetic"}` };
  }
  if (unknownKinds && sequence % 10 === 0) {
    return { event: 'metric.sampled', dataJson: `{"sequence":${sequence},"name":"tokens","value":${sequence * 3}}` };
  }
  const k = sequence - 2;
  const step = Math.floor(k / PHASES) + 1;
  const stepId = `step_${step}`;
  switch (k % PHASES) {
    case 0:
      return {
        event: 'step.started',
        dataJson: `{"sequence":${sequence},"step_id":"${stepId}","title":"Synthetic step ${step}"}`,
      };
    case 1:
      return {
        event: 'tool.called',
        dataJson: `{"sequence":${sequence},"tool":"${TOOLS[step % TOOLS.length]}","step_id":"${stepId}"}`,
      };
    case 2:
      return {
        event: 'observation.recorded',
        dataJson: `{"sequence":${sequence},"step_id":"${stepId}","summary":"Observation ${step}: ${(sequence * 37) % 1000} items seen"}`,
      };
    default:
      return {
        event: 'step.completed',
        dataJson: `{"sequence":${sequence},"step_id":"${stepId}","duration_ms":${(sequence * 7) % 100}}`,
      };
  }
}
