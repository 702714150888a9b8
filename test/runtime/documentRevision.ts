// The built-in agent's edits to attached text files, and one unified diff over all of them (jsdiff).
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';

/** Attachments larger than this are measured but not revised (the diff would be unreadable). */
export const MAX_REVISED_BYTES = 1024 * 1024;

export interface Revision {
  name: string;
  before: string;
  after: string;
}

/**
 * A small, deterministic, realistic edit: a note at the top, the middle line marked as reviewed,
 * a closing line at the end. On a file of a dozen lines or more these are separate hunks.
 */
export function reviseText(name: string, text: string, objective: string): string {
  const markdown = /\.(md|markdown)$/i.test(name);
  const purpose = objective.replace(/\s+/g, ' ').trim().slice(0, 80);
  const top = markdown ? `> Revised for: ${purpose}` : `# Revised for: ${purpose}`;
  const bottom = markdown ? '_Reviewed by the built-in agent._' : '# Reviewed by the built-in agent.';
  const crlf = text.includes('\r\n');
  const lines = text.split(/\r?\n/);
  const endsWithNewline = lines.length > 1 && lines[lines.length - 1] === '';
  if (endsWithNewline || text === '') {
    lines.pop();
  }
  const middle = Math.floor(lines.length / 2);
  const target = findNonBlank(lines, middle);
  if (target !== undefined) {
    lines[target] = `${lines[target].trimEnd()} (reviewed)`;
  }
  const revised = [top, ...(markdown ? [''] : []), ...lines, bottom];
  return `${revised.join(crlf ? '\r\n' : '\n')}${crlf ? '\r\n' : '\n'}`;
}

function findNonBlank(lines: string[], from: number): number | undefined {
  for (let i = from; i < lines.length; i++) {
    if (lines[i].trim() !== '') {
      return i;
    }
  }
  for (let i = from - 1; i >= 0; i--) {
    if (lines[i].trim() !== '') {
      return i;
    }
  }
  return undefined;
}

/** One patch over every revision, paths `a/<name>` and `b/<name>` as `git diff` writes them. */
export function unifiedPatch(revisions: Revision[]): string {
  const patches = revisions.map((r) =>
    structuredPatch(`a/${r.name}`, `b/${r.name}`, r.before, r.after, undefined, undefined, { context: 3 }),
  );
  return formatPatch(patches, FILE_HEADERS_ONLY);
}

/** How many hunks and changed lines a patch of these revisions holds (for the agent's observation). */
export function patchStats(revisions: Revision[]): { hunks: number; added: number; removed: number } {
  let hunks = 0;
  let added = 0;
  let removed = 0;
  for (const r of revisions) {
    const patch = structuredPatch(`a/${r.name}`, `b/${r.name}`, r.before, r.after, undefined, undefined, {
      context: 3,
    });
    hunks += patch.hunks.length;
    for (const hunk of patch.hunks) {
      for (const line of hunk.lines) {
        if (line.startsWith('+')) {
          added++;
        } else if (line.startsWith('-')) {
          removed++;
        }
      }
    }
  }
  return { hunks, added, removed };
}
