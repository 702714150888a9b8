// The context keys that choose the welcome views: what each view last learnt, combined and
// written only when a value changes (setContext is a round trip to the workbench).

export const CONTEXT_UNREACHABLE = 'agentRuntime.unreachable';
export const CONTEXT_FILES_EMPTY = 'agentRuntime.filesEmpty';
export const CONTEXT_TASKS_EMPTY = 'agentRuntime.tasksEmpty';

export type SidebarViewName = 'files' | 'tasks';

export type SetContext = (key: string, value: boolean) => void;

/** Shared by both providers; `agentRuntime.unreachable` is true while either view could not reach the service. */
export class SidebarContextKeys {
  private readonly unreachable = new Map<SidebarViewName, boolean>();
  private readonly written = new Map<string, boolean>();

  constructor(private readonly setContext: SetContext) {}

  /** What a view's last root load found. */
  report(view: SidebarViewName, state: { unreachable: boolean; empty: boolean }): void {
    this.unreachable.set(view, state.unreachable);
    this.write(view === 'files' ? CONTEXT_FILES_EMPTY : CONTEXT_TASKS_EMPTY, state.empty);
    this.write(CONTEXT_UNREACHABLE, [...this.unreachable.values()].some(Boolean));
  }

  /** A view starts over: what it found unreachable before must not outlive the refresh. */
  forgetUnreachable(view: SidebarViewName): void {
    this.unreachable.set(view, false);
    this.write(CONTEXT_UNREACHABLE, [...this.unreachable.values()].some(Boolean));
  }

  /** Forget a view's state (signed out): no welcome view of ours shows for it. */
  clear(view: SidebarViewName): void {
    this.report(view, { unreachable: false, empty: false });
  }

  private write(key: string, value: boolean): void {
    if (this.written.get(key) === value) return;
    this.written.set(key, value);
    this.setContext(key, value);
  }
}
