// "Has the workspace moved on since the run started?" and the instructions that tell the agent
// what moved (docs/PROTOCOL.md, Fork: catching up with the workspace). Pure: the command
// (src/reviewTalk/catchUp.ts) reads git and the files, this decides and words it. The
// instructions are the agent's text (English, like the comments' instructions); the person's
// sentences come from `Translate`.
import type { Translate } from '../common/translate';

/** Commits listed by name at most (the rest are counted). */
export const MAX_LISTED_COMMITS = 50;
/** A commit subject or a file name in the instructions is cut here. */
const MAX_NAME_CHARS = 200;
/** The runtime's cap on instructions (docs/PROTOCOL.md, Review conversations). */
export const MAX_CATCH_UP_INSTRUCTIONS = 10_000;

export interface MovedCommit {
  sha: string;
  subject: string;
}

/** A project run: the commit it started from against the clone's HEAD now. */
export interface ProjectPosition {
  baseCommit: string;
  head: string;
  ref?: string;
  /** The commits in base..HEAD, newest first (at most MAX_LISTED_COMMITS + 1 read). */
  commits: readonly MovedCommit[];
  /** The clone knows the base commit (else nothing can be said of what moved). */
  baseKnown: boolean;
}

export type ProjectMove =
  | { moved: true; baseCommit: string; head: string; ref?: string; commits: MovedCommit[]; more: number }
  | { moved: false; sentence: string };

/**
 * Moved on when HEAD is a different commit with commits after the base (base..HEAD not empty).
 * A HEAD with nothing after the base (the same commit, or an older or unrelated one checked
 * out) has not moved on; the sentence says where it is.
 */
export function projectMove(position: ProjectPosition, t: Translate): ProjectMove {
  const base = position.baseCommit.slice(0, 7);
  if (!position.baseKnown) {
    return {
      moved: false,
      sentence: t('This clone does not have commit {0}, which the run started from: fetch, then ask again.', base),
    };
  }
  if (position.head === position.baseCommit) {
    return {
      moved: false,
      sentence: t('The workspace has not moved on: HEAD is still commit {0}, which the run started from.', base),
    };
  }
  if (position.commits.length === 0) {
    return {
      moved: false,
      sentence: t(
        'The workspace has not moved on: HEAD ({0}) has no commit after {1}, which the run started from.',
        position.head.slice(0, 7),
        base,
      ),
    };
  }
  const commits = position.commits.slice(0, MAX_LISTED_COMMITS).map((c) => ({ ...c }));
  return {
    moved: true,
    baseCommit: position.baseCommit,
    head: position.head,
    ...(position.ref !== undefined ? { ref: position.ref } : {}),
    commits,
    more: position.commits.length - commits.length,
  };
}

/** What one uploaded file the run revised is in the workspace now, by SHA-256. */
export type FileState = 'edited' | 'asSent' | 'agents' | 'gone';

/**
 * `current` undefined: the file cannot be read. The same bytes as sent: not moved; the agent's
 * version (the person applied it): not moved either; anything else: edited.
 */
export function fileState(hashes: {
  sent: string;
  current: string | undefined;
  agents: string | undefined;
}): FileState {
  if (hashes.current === undefined) {
    return 'gone';
  }
  if (hashes.current === hashes.sent) {
    return 'asSent';
  }
  return hashes.current === hashes.agents ? 'agents' : 'edited';
}

/** One edited file: its name as the agent knows it (the attachment's filename) and the ids. */
export interface EditedFile {
  name: string;
  oldFileId: string;
  newFileId: string;
}

export type CatchUp =
  | { kind: 'project'; move: Extract<ProjectMove, { moved: true }>; uncommitted: readonly string[] }
  | { kind: 'uploads'; files: readonly EditedFile[] };

/** The text that tells the agent what moved and what to do, at most MAX_CATCH_UP_INSTRUCTIONS. */
export function catchUpInstructions(catchUp: CatchUp, extra?: string): string {
  const head = extra !== undefined && extra.trim() !== '' ? `${extra.trim()}\n\n` : '';
  let body: string;
  if (catchUp.kind === 'project') {
    const { move } = catchUp;
    const lines = [
      `The workspace moved on since you started from commit ${move.baseCommit}: it is now at commit ${move.head}${move.ref !== undefined ? ` (branch ${cut(move.ref)})` : ''}, ${move.commits.length + move.more} commit(s) later:`,
      ...move.commits.map((c) => `- ${c.sha.slice(0, 7)} ${cut(c.subject)}`),
      ...(move.more > 0 ? [`- and ${move.more} older commit(s)`] : []),
      '',
      `Start again from commit ${move.head} and make your changes there, keeping what those commits did. Your patch is then against ${move.head}.`,
    ];
    if (catchUp.uncommitted.length > 0) {
      lines.push(
        `The uncommitted work in the workspace is attached as uncommitted.diff, a diff against ${move.head} of: ${catchUp.uncommitted.map(cut).join(', ')}.`,
      );
    }
    body = lines.join('\n');
  } else {
    body = [
      `Since you started, ${catchUp.files.length} file(s) you changed were edited in the workspace:`,
      ...catchUp.files.map((f) => `- ${cut(f.name)} (sent as ${f.oldFileId}, now ${f.newFileId})`),
      '',
      'The edited versions are attached in place of the ones you had. Make your changes again on them, keeping the edits.',
    ].join('\n');
  }
  const text = head + body;
  return text.length <= MAX_CATCH_UP_INSTRUCTIONS ? text : `${text.slice(0, MAX_CATCH_UP_INSTRUCTIONS - 2)}…`;
}

function cut(text: string): string {
  const line = text.replace(/[\r\n]+/g, ' ');
  return line.length <= MAX_NAME_CHARS ? line : `${line.slice(0, MAX_NAME_CHARS - 1)}…`;
}
