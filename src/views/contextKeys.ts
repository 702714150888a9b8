// The context keys that choose the welcome views: what each view last learnt, combined and
// written only when a value changes (setContext is a round trip to the workbench).

export const CONTEXT_UNREACHABLE = 'agentRuntime.unreachable';
export const CONTEXT_FILES_EMPTY = 'agentRuntime.filesEmpty';
export const CONTEXT_TASKS_EMPTY = 'agentRuntime.tasksEmpty';
/** Per view, so one view's welcome never says "cannot be reached" because of the other one. */
export const CONTEXT_FILES_UNREACHABLE = 'agentRuntime.filesUnreachable';
export const CONTEXT_TASKS_UNREACHABLE = 'agentRuntime.tasksUnreachable';

export type SidebarViewName = 'files' | 'tasks';

export type SetContext = (key: string, value: boolean) => void;

/**
 * Shared by both providers. `agentRuntime.filesUnreachable` / `tasksUnreachable` choose each
 * view's welcome; `agentRuntime.unreachable` (either view) feeds the status bar.
 */
export class SidebarContextKeys {
  private readonly unreachable = new Map<SidebarViewName, boolean>();
  private readonly written = new Map<string, boolean>();

  constructor(private readonly setContext: SetContext) {}

  /** What a view's last root load found. */
  report(view: SidebarViewName, state: { unreachable: boolean; empty: boolean }): void {
    this.write(view === 'files' ? CONTEXT_FILES_EMPTY : CONTEXT_TASKS_EMPTY, state.empty);
    this.setUnreachable(view, state.unreachable);
  }

  /** A view starts over: what it found unreachable before must not outlive the refresh. */
  forgetUnreachable(view: SidebarViewName): void {
    this.setUnreachable(view, false);
  }

  /** Forget a view's state (signed out): no welcome view of ours shows for it. */
  clear(view: SidebarViewName): void {
    this.report(view, { unreachable: false, empty: false });
  }

  private setUnreachable(view: SidebarViewName, value: boolean): void {
    this.unreachable.set(view, value);
    this.write(view === 'files' ? CONTEXT_FILES_UNREACHABLE : CONTEXT_TASKS_UNREACHABLE, value);
    this.write(CONTEXT_UNREACHABLE, [...this.unreachable.values()].some(Boolean));
  }

  private write(key: string, value: boolean): void {
    if (this.written.get(key) === value) return;
    this.written.set(key, value);
    this.setContext(key, value);
  }
}
