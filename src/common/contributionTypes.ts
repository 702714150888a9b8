// The shape of what a feature contributes to package.json: its commands (with their menus, palette
// visibility and keybindings), views and welcome content. Each feature declares its own in
// `src/<feature>/contributions.ts`, as plain data (no vscode: the build script loads them in Node);
// src/contributions.ts lists the features and builds package.json's `contributes` sections, the
// English of package.nls.json and the command id union (`npm run contributions`, checked in CI).

/** Every command and view of the extension is named under this prefix. */
export type OurId = `agentRuntime.${string}`;

/** The menus a command may be placed in (package.json `contributes.menus`), in package.json's order. */
export const MENU_LOCATIONS = [
  'commandPalette',
  'scm/title',
  'explorer/context',
  'editor/title/context',
  'editor/context',
  'view/title',
  'view/item/context',
  'editor/title',
  'webview/context',
  'comments/commentThread/context',
  'comments/commentThread/title',
  'comments/comment/title',
  'comments/comment/context',
] as const;

export type MenuLocation = (typeof MENU_LOCATIONS)[number];

/** One place of a command in a menu: a `when` clause and a group (`navigation@1`, `inline@2`, `1_run@3`). */
export interface MenuPlacement {
  when?: string;
  group?: string;
}

export interface KeybindingDeclaration {
  key: string;
  mac?: string;
  when?: string;
}

export interface CommandDeclaration {
  id: OurId;
  /** English; package.nls.json gets it as `command.<name>.title` (German by hand in package.nls.de.json). */
  title: string;
  /** English short title (`command.<name>.shortTitle`), where a view's title bar has little room. */
  shortTitle?: string;
  /** A codicon id, e.g. `refresh` (written `$(refresh)`). */
  icon?: string;
  /** A `when` clause that greys the command out everywhere (`enablement`). */
  enablement?: string;
  /**
   * The Command Palette: a `when` clause, `false` to hide it there (row and argument commands),
   * or left out to show it always.
   */
  palette?: string | false;
  /** Every other menu the command appears in (the order within a location is this list's). */
  menus?: Partial<Record<Exclude<MenuLocation, 'commandPalette'>, readonly MenuPlacement[]>>;
  keybindings?: readonly KeybindingDeclaration[];
}

export interface WelcomeDeclaration {
  /** English markdown; `[label](command:agentRuntime.x)` links must name a declared command. */
  contents: string;
  when?: string;
}

export interface ViewDeclaration {
  id: OurId;
  /** English (`view.<name>.name`). */
  name: string;
  /** The view container it sits in (`agentRuntime`, the activity bar's). */
  container: string;
  /** Its place in the container, top to bottom (views of several features share one container). */
  position: number;
  /** A file of the extension (`media/activity.svg`); the contextual title is the container's. */
  icon?: string;
  when?: string;
  visibility?: 'visible' | 'collapsed' | 'hidden';
  /** Welcome content while the view is empty, in order (`viewsWelcome.<name>.<index>`). */
  welcome?: readonly WelcomeDeclaration[];
}

export interface ViewContainerDeclaration {
  id: string;
  /** English (`viewsContainer.<id>.title`). */
  title: string;
  icon: string;
  location: 'activitybar' | 'panel';
}

/** What one feature contributes. */
export interface FeatureContributions {
  commands?: readonly CommandDeclaration[];
  viewsContainers?: readonly ViewContainerDeclaration[];
  views?: readonly ViewDeclaration[];
}
