// Hostile project patches: the content of a project run's patch artifact (one with base_commit)
// is the real patch followed by parts a client must refuse or bound: paths with `..`, absolute
// paths, `.git/` and names other file systems read as `.git`, a path through `linked/` (a test makes that a symlink out of the folder), a
// binary part, names with a bidi override and a command link; `hugeProjectPatchBytes` pads the
// patch past a size a client must not read whole; `wideProjectPatchFiles` adds many plain new
// files with a git hook among them, past the first screenful.
import type { ArtifactRecord } from '../records';
import { BIDI_OVERRIDE, COMMAND_LINK } from './values';

/** The paths of the refused parts, in the order they come (after the real patch). */
export const HOSTILE_PATCH_PATHS: readonly string[] = [
  '../outside.txt',
  '/etc/hostile-passwd',
  '.git/config',
  'linked/escape.txt',
];

/**
 * New files whose names another file system reads as `.git` (NTFS: trailing dots and spaces, a
 * stream, the short name; HFS+: an ignored code point) or as `.gitmodules` by its hashed short name.
 */
export const HOSTILE_DOTGIT_PATHS: readonly string[] = [
  '.git./hooks/pre-commit',
  '.git /hooks/pre-commit',
  'GIT~1/hooks/pre-commit',
  '.git::$INDEX_ALLOCATION/hooks/pre-commit',
  '.g\u200cit/hooks/pre-commit',
  'GI7EBA~1',
];

/** The binary part's path. */
export const HOSTILE_BINARY_PATH = 'logo.png';

/** Names a person must see as they are (no link, no reordering); created files, never a file that exists. */
export const HOSTILE_PATCH_NAMES: readonly string[] = [`notes-${BIDI_OVERRIDE}`, `${COMMAND_LINK}.md`];

function editPart(path: string): string {
  return [`diff --git a/${path} b/${path}`, `--- a/${path}`, `+++ b/${path}`, '@@ -1 +1 @@', '-x', '+hostile', ''].join(
    '\n',
  );
}

function createPart(path: string): string {
  return [
    `diff --git a/${path} b/${path}`,
    'new file mode 100644',
    '--- /dev/null',
    `+++ b/${path}`,
    '@@ -0,0 +1 @@',
    '+hostile',
    '',
  ].join('\n');
}

function binaryPart(path: string): string {
  return [
    `diff --git a/${path} b/${path}`,
    'index 1111111..2222222 100644',
    `Binary files a/${path} and b/${path} differ`,
    '',
  ].join('\n');
}

/** In a wide patch, the hook comes at this place (1-based): past a dialog's first screenful. */
export const WIDE_PATCH_HOOK_PLACE = 45;
export const WIDE_PATCH_HOOK = '.husky/pre-commit';

/** The files a wide patch creates, in order: `wide/file-01.md`..., the hook at WIDE_PATCH_HOOK_PLACE. */
export function wideProjectPatchPaths(count: number): string[] {
  return Array.from({ length: Math.max(0, count) }, (_, i) =>
    i + 1 === WIDE_PATCH_HOOK_PLACE ? WIDE_PATCH_HOOK : `wide/file-${String(i + 1).padStart(2, '0')}.md`,
  );
}

export interface HostilePatchShape {
  /** The refused parts, the hostile names and the binary part (the `projectPatches` switch). */
  refusedParts: boolean;
  /** Padded to at least this many bytes; 0 = not padded. */
  padToBytes: number;
  /** Plain new files added after the real patch (wideProjectPatchPaths). */
  wideFiles: number;
}

/** The patch a client gets for `real` (the real patch's text). */
export function hostileProjectPatch(real: string, shape: HostilePatchShape): Buffer {
  const { padToBytes } = shape;
  const parts = [
    real.endsWith('\n') || real === '' ? real : `${real}\n`,
    ...wideProjectPatchPaths(shape.wideFiles).map(createPart),
    ...(shape.refusedParts
      ? [
          ...HOSTILE_PATCH_PATHS.map(editPart),
          ...HOSTILE_PATCH_NAMES.map(createPart),
          ...HOSTILE_DOTGIT_PATHS.map(createPart),
          // Last: a plain part after a git binary header would be read as part of it.
          binaryPart(HOSTILE_BINARY_PATH),
        ]
      : []),
  ];
  let text = parts.join('');
  const missing = padToBytes - Buffer.byteLength(text);
  if (missing > 0) {
    // A created file of filler lines: the patch stays a valid diff however big it gets.
    const line = '+hostile padding hostile padding hostile padding hostile padding\n';
    const lines = Math.ceil(missing / line.length);
    text = `${createPart('padding.txt').replace('@@ -0,0 +1 @@\n+hostile\n', `@@ -0,0 +1,${lines} @@\n`)}${line.repeat(lines)}${text}`;
  }
  return Buffer.from(text, 'utf8');
}

export function isProjectPatchArtifact(artifact: ArtifactRecord | undefined): boolean {
  return typeof artifact?.base_commit === 'string';
}
