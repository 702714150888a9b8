// The context keys that choose the welcome views: what each view last learnt, combined and
// written only when a value changes (setContext is a round trip to the workbench). Per view
// unreachable keys, so one view's welcome never says "cannot be reached" because of the other.

export type SidebarViewName = 'files' | 'tasks';

import { ContextKeys } from '../common/ids';
import type { SetContext } from '../common/setContext';

export type { SetContext };

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
    this.write(view === 'files' ? ContextKeys.filesEmpty : ContextKeys.tasksEmpty, state.empty);
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
    this.write(view === 'files' ? ContextKeys.filesUnreachable : ContextKeys.tasksUnreachable, value);
    this.write(ContextKeys.unreachable, [...this.unreachable.values()].some(Boolean));
  }

  private write(key: string, value: boolean): void {
    if (this.written.get(key) === value) {
      return;
    }
    this.written.set(key, value);
    this.setContext(key, value);
  }
}
