// What a restored panel needs, saved with the webview's state: throttled, and small (a bounded
// snapshot of the model; the panel resumes from it and the host's log fills in the rest).
import { type TimelineState, toLogFilter } from './reducer';
import type { VsCodeApi } from './vscodeApi';

const PERSIST_EVERY_MS = 1000;
const PERSIST_LIMITS = { recent: 200, steps: 300 };

export class Persistence {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private last = 0;

  constructor(
    private readonly vscode: VsCodeApi,
    private readonly state: TimelineState,
    private readonly query: () => string,
  ) {}

  schedule(): void {
    if (this.timer !== undefined) {
      return;
    }
    this.timer = setTimeout(() => this.persist(), Math.max(0, this.last + PERSIST_EVERY_MS - Date.now()));
  }

  private persist(): void {
    this.timer = undefined;
    this.last = Date.now();
    const state = this.state;
    if (!state.runId) {
      return;
    }
    this.vscode.setState({
      runId: state.runId,
      lastSequence: state.model.lastSequence,
      objective: state.info.objective,
      snapshot: state.model.snapshot(PERSIST_LIMITS),
      filter: toLogFilter(state.filter),
      query: this.query(),
    });
  }
}
