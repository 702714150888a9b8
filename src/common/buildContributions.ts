// Turns the features' declarations (src/contributions.ts lists them) into what package.json,
// package.nls.json and src/common/commandIds.generated.ts hold, and says how a manifest differs
// from them. Pure: scripts/generate-contributions.js writes and checks the files with it, the unit
// tests call it directly.
import {
  type CommandDeclaration,
  type FeatureContributions,
  MENU_LOCATIONS,
  type MenuLocation,
  type ViewDeclaration,
} from './contributionTypes';

/** A feature's declarations and the file that holds them (named in the check's messages). */
export interface DeclaredFeature {
  source: string;
  contributions: FeatureContributions;
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** package.json's `contributes` sections the declarations own; the rest stays hand-written. */
export const GENERATED_SECTIONS = ['commands', 'viewsContainers', 'views', 'viewsWelcome', 'menus', 'keybindings'];

/** The English of the `%category%` every command carries. */
export const CATEGORY_TITLE = 'Agent Runtime';

/** The package.nls.json keys the declarations own (other keys are hand-written and kept as they are). */
export function isGeneratedNlsKey(key: string): boolean {
  return /^(category|command\.[^.]+\.(title|shortTitle)|view\.[^.]+\.name|viewsContainer\.[^.]+\.title|viewsWelcome\.[^.]+\.\d+)$/.test(
    key,
  );
}

export interface BuiltContributions {
  /** The sections of `contributes`, in package.json's order, each replacing the manifest's. */
  sections: Record<string, Json>;
  /** package.nls.json's generated keys and their English, in declaration order. */
  nls: Record<string, string>;
  /** Every command id, in declaration order, with the feature file declaring it. */
  commands: { id: string; name: string; source: string }[];
  /** Mistakes in the declarations (a duplicate id, a link to an unknown command); empty when sound. */
  problems: string[];
}

const PREFIX = 'agentRuntime.';
const nameOf = (id: string): string => (id.startsWith(PREFIX) ? id.slice(PREFIX.length) : id);
const ref = (key: string): string => `%${key}%`;

function commandEntry(c: CommandDeclaration): JsonObject {
  const name = nameOf(c.id);
  return {
    command: c.id,
    title: ref(`command.${name}.title`),
    ...(c.shortTitle ? { shortTitle: ref(`command.${name}.shortTitle`) } : {}),
    category: ref('category'),
    ...(c.icon ? { icon: `$(${c.icon})` } : {}),
    ...(c.enablement ? { enablement: c.enablement } : {}),
  };
}

function viewEntry(v: ViewDeclaration, containerTitleKey: string | undefined): JsonObject {
  return {
    id: v.id,
    name: ref(`view.${nameOf(v.id)}.name`),
    ...(v.icon ? { icon: v.icon } : {}),
    ...(containerTitleKey ? { contextualTitle: ref(containerTitleKey) } : {}),
    ...(v.when ? { when: v.when } : {}),
    ...(v.visibility ? { visibility: v.visibility } : {}),
  };
}

/** Builds the generated sections and strings from the features, in their order. */
export function buildContributions(features: readonly DeclaredFeature[]): BuiltContributions {
  const problems: string[] = [];
  const nls: Record<string, string> = { category: CATEGORY_TITLE };
  const commands: BuiltContributions['commands'] = [];
  const commandEntries: Json[] = [];
  const menus = new Map<MenuLocation, Json[]>(MENU_LOCATIONS.map((l) => [l, []]));
  const keybindings: Json[] = [];
  const containers: Record<string, Json[]> = {};
  const containerTitleKeys = new Map<string, string>();
  const views: { view: ViewDeclaration; order: number }[] = [];

  for (const { source, contributions } of features) {
    for (const c of contributions.commands ?? []) {
      if (commands.some((known) => known.id === c.id)) {
        problems.push(`${c.id} is declared twice (again in ${source})`);
        continue;
      }
      const name = nameOf(c.id);
      commands.push({ id: c.id, name, source });
      commandEntries.push(commandEntry(c));
      nls[`command.${name}.title`] = c.title;
      if (c.shortTitle) {
        nls[`command.${name}.shortTitle`] = c.shortTitle;
      }
      if (c.palette !== undefined) {
        menus.get('commandPalette')!.push({ command: c.id, when: c.palette === false ? 'false' : c.palette });
      }
      for (const [location, placements] of Object.entries(c.menus ?? {}) as [MenuLocation, readonly Json[]][]) {
        if (!menus.has(location)) {
          problems.push(`${c.id} (${source}): unknown menu ${location}`);
          continue;
        }
        for (const p of placements as { when?: string; group?: string }[]) {
          menus
            .get(location)!
            .push({ command: c.id, ...(p.when ? { when: p.when } : {}), ...(p.group ? { group: p.group } : {}) });
        }
      }
      for (const k of c.keybindings ?? []) {
        keybindings.push({
          command: c.id,
          key: k.key,
          ...(k.mac ? { mac: k.mac } : {}),
          ...(k.when ? { when: k.when } : {}),
        });
      }
    }
    for (const container of contributions.viewsContainers ?? []) {
      const key = `viewsContainer.${container.id}.title`;
      containerTitleKeys.set(container.id, key);
      nls[key] = container.title;
      (containers[container.location] ??= []).push({ id: container.id, title: ref(key), icon: container.icon });
    }
    for (const view of contributions.views ?? []) {
      views.push({ view, order: views.length });
    }
  }

  views.sort((a, b) => a.view.position - b.view.position || a.order - b.order);
  const viewSection: Record<string, Json[]> = {};
  const welcome: Json[] = [];
  for (const { view } of views) {
    const name = nameOf(view.id);
    nls[`view.${name}.name`] = view.name;
    (viewSection[view.container] ??= []).push(viewEntry(view, containerTitleKeys.get(view.container)));
    (view.welcome ?? []).forEach((w, index) => {
      const key = `viewsWelcome.${name}.${index}`;
      nls[key] = w.contents;
      welcome.push({ view: view.id, ...(w.when ? { when: w.when } : {}), contents: ref(key) });
    });
  }

  const declared = new Set(commands.map((c) => c.id));
  for (const [key, text] of Object.entries(nls)) {
    for (const m of text.matchAll(/\(command:(agentRuntime\.[\w.]+?)(?:\?[^)]*)?\)/g)) {
      if (!declared.has(m[1]) && !views.some(({ view }) => m[1] === `${view.id}.focus`)) {
        problems.push(`${key} links to ${m[1]}, which no feature declares`);
      }
    }
  }

  const menuSection: JsonObject = {};
  for (const [location, entries] of menus) {
    if (entries.length > 0) {
      menuSection[location] = entries;
    }
  }
  return {
    sections: {
      commands: commandEntries,
      viewsContainers: containers,
      views: viewSection,
      viewsWelcome: welcome,
      menus: menuSection,
      keybindings,
    },
    nls,
    commands,
    problems,
  };
}

/**
 * package.json with the generated sections put in place (keeping the place of each section it
 * already has), as text: two-space JSON and a final newline.
 */
export function applyToManifest(manifestText: string, built: BuiltContributions): string {
  const manifest = JSON.parse(manifestText) as JsonObject;
  const contributes = (manifest.contributes ?? {}) as JsonObject;
  for (const [section, value] of Object.entries(built.sections)) {
    const empty = Array.isArray(value) ? value.length === 0 : Object.keys(value as JsonObject).length === 0;
    if (empty) {
      delete contributes[section];
    } else {
      contributes[section] = value;
    }
  }
  manifest.contributes = contributes;
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * package.nls.json with the generated keys' English: a key keeps its line, a new one is added at
 * the end, a generated key no declaration makes any more is dropped; hand-written keys stay.
 */
export function applyToNls(nlsText: string, built: BuiltContributions): string {
  const current = JSON.parse(nlsText) as Record<string, string>;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(current)) {
    if (!isGeneratedNlsKey(key)) {
      out[key] = value;
    } else if (key in built.nls) {
      out[key] = built.nls[key];
    }
  }
  for (const [key, value] of Object.entries(built.nls)) {
    if (!(key in out)) {
      out[key] = value;
    }
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** src/common/commandIds.generated.ts: the command ids, `as const`, and their union. */
export function commandIdsModule(built: BuiltContributions): string {
  const rows = built.commands.map((c) => `  ${c.name}: '${c.id}',`);
  return [
    '// Generated by `npm run contributions` from the declarations src/contributions.ts lists: do not edit.',
    '// src/common/ids.ts re-exports them; a command is added by declaring it beside its feature.',
    '',
    'export const Commands = {',
    ...rows,
    '} as const;',
    '',
    'export type CommandId = (typeof Commands)[keyof typeof Commands];',
    '',
  ].join('\n');
}

const entryKey = (e: Json): string => JSON.stringify(e);

/** The command (or view) an entry is about: `command`, `id` or `view`. */
function subjectOf(e: Json): string | undefined {
  if (e && typeof e === 'object' && !Array.isArray(e)) {
    const s = e.command ?? e.id ?? e.view;
    return typeof s === 'string' ? s : undefined;
  }
  return undefined;
}

/** Every list of entries under a section (`menus` and `views` are maps of lists), by path. */
function listsOf(section: string, value: Json | undefined): Map<string, Json[]> {
  const out = new Map<string, Json[]>();
  if (Array.isArray(value)) {
    out.set(section, value);
  } else if (value && typeof value === 'object') {
    for (const [key, list] of Object.entries(value)) {
      out.set(`${section}.${key}`, Array.isArray(list) ? list : [list]);
    }
  }
  return out;
}

/**
 * How the manifest's generated sections differ from the declarations, one line each, naming the
 * declaration to write or change; empty when they match exactly (order and form included).
 * `whereRegistered` guesses the feature of a command no declaration has (from the code that
 * registers it).
 */
export function manifestDifferences(
  manifest: JsonObject,
  built: BuiltContributions,
  whereRegistered: (id: string) => string | undefined = () => undefined,
): string[] {
  const lines: string[] = [];
  const contributes = (manifest.contributes ?? {}) as JsonObject;
  const sourceOf = new Map(built.commands.map((c) => [c.id, c.source]));
  const declareIn = (id: string): string => {
    const known = sourceOf.get(id);
    if (known) {
      return known;
    }
    const folder = whereRegistered(id);
    return folder ? `src/${folder}/contributions.ts` : 'src/<feature>/contributions.ts';
  };
  for (const section of GENERATED_SECTIONS) {
    const have = listsOf(section, contributes[section]);
    const want = listsOf(section, built.sections[section]);
    for (const path of new Set([...have.keys(), ...want.keys()])) {
      const h = have.get(path) ?? [];
      const w = want.get(path) ?? [];
      const wanted = new Map<string, number>();
      for (const e of w) {
        wanted.set(entryKey(e), (wanted.get(entryKey(e)) ?? 0) + 1);
      }
      const extra: Json[] = [];
      for (const e of h) {
        const n = wanted.get(entryKey(e)) ?? 0;
        if (n > 0) {
          wanted.set(entryKey(e), n - 1);
        } else {
          extra.push(e);
        }
      }
      const lacking = w.filter((e) => {
        const n = wanted.get(entryKey(e)) ?? 0;
        if (n > 0) {
          wanted.set(entryKey(e), n - 1);
          return true;
        }
        return false;
      });
      for (const e of extra) {
        const subject = subjectOf(e) ?? '?';
        lines.push(
          sourceOf.has(subject)
            ? `${path}: package.json has ${entryKey(e)}, which ${subject}'s declaration does not make: change it in ${declareIn(subject)} and run npm run contributions`
            : `${path}: package.json has ${entryKey(e)}, which no declaration makes: declare ${subject} in ${declareIn(subject)} and run npm run contributions`,
        );
      }
      for (const e of lacking) {
        lines.push(`${path}: package.json lacks ${entryKey(e)}: run npm run contributions`);
      }
      if (extra.length === 0 && lacking.length === 0 && h.map(entryKey).join() !== w.map(entryKey).join()) {
        lines.push(`${path}: the entries are in another order than the declarations': run npm run contributions`);
      }
    }
  }
  return lines;
}
