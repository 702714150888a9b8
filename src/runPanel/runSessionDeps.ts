// What a RunSession is given: the client calls it makes, the stream to subscribe to, where to
// post, how to describe errors, and the hooks the extension listens on. Types only.
import type { ArtifactRecord, Page, PageParams, RunRecord, TaskRecord } from '../api/types';
import type { Logger } from '../common/logger';
import type { LogFolderLimits } from '../runLog/logFolder';
import type { EventSource, SubscriptionState } from './eventSource';
import type { PanelChannelOptions } from './panelChannel';
import type { SteeringSupport } from './steeringSupport';
import type { HostMessage, UiStrings } from './protocol';
import type { RunSnapshot } from '../runEvents/wire';

/** The client calls the panel makes (ApiClient has them). */
export interface RunPanelClient {
  getRun(id: string, opts?: { signal?: AbortSignal }): Promise<RunRecord>;
  getTask(id: string, opts?: { signal?: AbortSignal }): Promise<TaskRecord>;
  listRunArtifacts(runId: string, params?: PageParams, opts?: { signal?: AbortSignal }): Promise<Page<ArtifactRecord>>;
}

export interface RunSessionDeps {
  runId: string;
  objective?: string;
  /** A compacted model to start from (a panel restored after a window reload). */
  restored?: RunSnapshot;
  /** Asked on each use: signing in again may replace the client. */
  client(): RunPanelClient;
  /** Opens the resumable stream after a sequence (RunEventSubscription in the extension). */
  subscribe(after: number, onState: (state: SubscriptionState) => void, signal: AbortSignal): EventSource;
  post(message: HostMessage): void;
  strings: UiStrings;
  describeError(err: unknown): string;
  isSignInError(err: unknown): boolean;
  log: Logger;
  /** After each batch of new events: the highest sequence and the last event's name (the RunStore's input). */
  onEvents?(lastSequence: number, lastEventName: string): void;
  /** Once, when the run is known to have ended, with its final status. */
  onStatus?(status: string): void;
  /** The run's objective, once known (the panel's title). */
  onObjective?(objective: string): void;
  now?: () => number;
  channel?: PanelChannelOptions;
  /** Where the run's whole log is kept (the extension's global storage + '/run-logs'); without it only the bounded model. */
  logFolder?: string;
  /** The service's normalised base URL when the panel opened: its run's log is kept under it, and steering is known per service. */
  service?: string;
  /**
   * The service the client talks to now (asked per connection, state and batch). When it is no
   * longer `service` (the base URL changed), the session stops its stream with a message and
   * takes nothing more from the client: the run, its model and its log belong to `service`.
   */
  currentService?(): string | undefined;
  /** Which services do not offer steering (the extension host's one registry unless a test gives its own). */
  steering?: SteeringSupport;
  logLimits?: LogFolderLimits;
}
