// The panel's log filter as its controls hold it, and its form for the host. OTHER_KINDS (the
// kinds past the model's cap) exists only here: the host cannot apply it, the reducer does.
import type { LogFilter } from '../runEvents/logQuery';

/** The kind filter's value for the events of kinds past the model's cap (not a name a row can have). */
export const OTHER_KINDS = '\u0000other kinds';

/** The panel's filter as its controls hold it; `toLogFilter` is what the host is asked with. */
export interface Filter {
  /** '' for every kind, OTHER_KINDS for those past the cap, else an event name. */
  kind: string;
  tool: string;
  stepId: string;
  status: '' | 'problems' | 'approvals';
}

export const NO_FILTER: Filter = { kind: '', tool: '', stepId: '', status: '' };

/** What the host is asked with: OTHER_KINDS has no LogFilter form, so it stays a local check. */
export function toLogFilter(filter: Filter): LogFilter {
  const out: LogFilter = {};
  if (filter.kind !== '' && filter.kind !== OTHER_KINDS) {
    out.kinds = [filter.kind];
  }
  if (filter.tool) {
    out.tool = filter.tool;
  }
  if (filter.stepId) {
    out.stepId = filter.stepId;
  }
  if (filter.status) {
    out.status = filter.status;
  }
  return out;
}

export function fromLogFilter(filter: LogFilter | undefined): Filter {
  return {
    kind: filter?.kinds?.length === 1 ? filter.kinds[0] : '',
    tool: filter?.tool ?? '',
    stepId: filter?.stepId ?? '',
    status: filter?.status ?? '',
  };
}

export function isFiltered(filter: Filter): boolean {
  return filter.kind !== '' || filter.tool !== '' || filter.stepId !== '' || filter.status !== '';
}
