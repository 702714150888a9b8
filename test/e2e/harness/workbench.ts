// Drives the VS Code workbench in a Playwright page: waits for it, runs palette commands, opens
// activity-bar containers, finds tree rows, uses context menus, quick inputs, notifications and
// webviews. Every wait is on a condition with a timeout, never a fixed sleep.
import { type Frame, type Locator, type Page } from 'playwright-core';

export const DEFAULT_TIMEOUT_MS = 30_000;

export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const exactly = (s: string): RegExp => new RegExp(`^\\s*${escapeRegExp(s)}\\s*$`);

export class Workbench {
  constructor(
    readonly page: Page,
    readonly timeoutMs = DEFAULT_TIMEOUT_MS,
  ) {}

  /** Opens `url` and waits until the workbench shows its activity bar and the workspace's explorer. */
  async open(url: string): Promise<void> {
    await this.page.goto(url, { timeout: 60_000 });
    await this.waitForReady();
  }

  async waitForReady(): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await this.page.locator('.part.activitybar .action-item').first().waitFor({ timeout: 60_000 });
    await this.page.locator('.part.statusbar').waitFor({ timeout: 60_000 });
  }

  /** The activity-bar entry of a view container, by its title (its aria-label starts with it). */
  activityItem(title: string): Locator {
    return this.page
      .locator(
        `.part.activitybar .action-item .action-label[aria-label^="${title}"], .part.activitybar .action-item[aria-label^="${title}"]`,
      )
      .first();
  }

  /**
   * Opens an activity-bar container and waits for the sidebar to show its title. Clicking the
   * active container's icon hides the sidebar, and an extension may reveal its container at the
   * same moment, so look again after each click until the title shows.
   */
  async openContainer(title: string): Promise<void> {
    const item = this.activityItem(title);
    await item.waitFor({ timeout: this.timeoutMs });
    const shown = this.page.locator('.part.sidebar .composite.title .title-label', {
      hasText: new RegExp(escapeRegExp(title), 'i'),
    });
    const deadline = Date.now() + this.timeoutMs;
    while (!(await this.sidebarTitleIs(title))) {
      if (Date.now() > deadline) {
        throw new Error(`the sidebar does not show "${title}"`);
      }
      await item.click();
      await shown.waitFor({ timeout: 3_000 }).catch(() => undefined);
    }
    await this.moveMouseAway();
  }

  /**
   * A pointer left resting on an activity-bar icon brings up its hover ("Explorer (Ctrl+Shift+E)"),
   * which lies over the first rows of the sidebar and takes the next click on them for as long as
   * the pointer stays. Park the pointer over the status bar's empty middle instead.
   */
  private async moveMouseAway(): Promise<void> {
    const viewport = this.page.viewportSize();
    if (viewport) {
      await this.page.mouse.move(Math.round(viewport.width / 2), viewport.height - 4);
    }
  }

  private async sidebarTitleIs(title: string): Promise<boolean> {
    const label = this.page.locator('.part.sidebar .composite.title .title-label');
    if (!(await label.isVisible())) {
      return false;
    }
    return ((await label.textContent()) ?? '').trim().toLowerCase() === title.toLowerCase();
  }

  /** The sidebar container's title as written (CSS shows it upper-cased). */
  async sidebarTitle(): Promise<string> {
    const h2 = this.page.locator('.part.sidebar .composite.title .title-label h2');
    await h2.waitFor({ timeout: this.timeoutMs });
    return ((await h2.getAttribute('title')) ?? (await h2.textContent()) ?? '').trim();
  }

  /** The pane (header + body) of a view in the sidebar, by the view's name. */
  view(name: string): Locator {
    return this.page
      .locator('.part.sidebar .split-view-view')
      .filter({ has: this.page.locator('.pane-header h3.title', { hasText: exactly(name) }) })
      .first();
  }

  /** The names of the views shown in the sidebar, in order. */
  async viewNames(): Promise<string[]> {
    await this.page.locator('.part.sidebar .pane-header h3.title').first().waitFor({ timeout: this.timeoutMs });
    return (await this.page.locator('.part.sidebar .pane-header h3.title').allTextContents()).map((t) => t.trim());
  }

  /** Expands a collapsed view so its rows render. */
  async expandView(name: string): Promise<Locator> {
    const view = this.view(name);
    const header = view.locator('.pane-header');
    await header.waitFor({ timeout: this.timeoutMs });
    if ((await header.getAttribute('aria-expanded')) === 'false') {
      await header.click();
    }
    await view.locator('.pane-body').waitFor({ timeout: this.timeoutMs });
    return view;
  }

  /** Rows of a tree view, optionally only those whose text matches. */
  treeRows(viewName: string, text?: string | RegExp): Locator {
    const rows = this.view(viewName).locator('.monaco-list-row');
    return text === undefined ? rows : rows.filter({ hasText: text });
  }

  /** Waits for a row with `text` in a view and returns it. */
  async treeRow(viewName: string, text: string | RegExp): Promise<Locator> {
    await this.expandView(viewName);
    const row = this.treeRows(viewName, text).first();
    await row.waitFor({ timeout: this.timeoutMs });
    return row;
  }

  /** The explorer's row for a workspace file or folder (by its label). */
  async explorerRow(label: string): Promise<Locator> {
    await this.openContainer('Explorer');
    const row = this.page
      .locator('.explorer-folders-view .monaco-list-row', {
        has: this.page.locator('.label-name', { hasText: exactly(label) }),
      })
      .first();
    await row.waitFor({ timeout: this.timeoutMs });
    return row;
  }

  /**
   * Selects these Explorer rows together and returns them. A click opens the file in an editor,
   * and when that editor opens the Explorer reveals (and selects) its file again, which can undo a
   * Ctrl+click made meanwhile (seen in CI: one file of two uploaded). Scenarios that multi-select
   * turn `explorer.autoReveal` off; this also waits for the first file's editor before adding the
   * others, and checks that every row ends up selected.
   */
  async selectExplorerRows(labels: readonly string[]): Promise<Locator[]> {
    const rows: Locator[] = [];
    for (const label of labels) {
      rows.push(await this.explorerRow(label));
    }
    for (let attempt = 0; ; attempt++) {
      await rows[0].click();
      await this.waitForEditorTab(labels[0]);
      for (const row of rows.slice(1)) {
        await row.click({ modifiers: ['Control'] });
      }
      const selected = await Promise.all(rows.map((r) => r.getAttribute('aria-selected')));
      if (selected.every((s) => s === 'true')) {
        return rows;
      }
      if (attempt >= 3) {
        throw new Error(`the Explorer did not keep ${labels.join(', ')} selected together`);
      }
    }
  }

  /** Right-clicks `row` and chooses `item` in its context menu. */
  async contextMenu(row: Locator, item: string | RegExp): Promise<void> {
    await row.click({ button: 'right' });
    const menu = this.page.locator('.context-view .monaco-menu');
    const menuItem = menu
      .locator('.action-item .action-label', { hasText: typeof item === 'string' ? exactly(item) : item })
      .first();
    await menuItem.waitFor({ timeout: this.timeoutMs });
    await menuItem.click();
    // A click that lands while the menu is still settling (a busy machine) can be lost; the
    // hovered item is focused, so Enter chooses it.
    if (
      !(await menu.waitFor({ state: 'detached', timeout: 5_000 }).then(
        () => true,
        () => false,
      ))
    ) {
      await menuItem.hover();
      await this.page.keyboard.press('Enter');
      await menu.waitFor({ state: 'detached', timeout: this.timeoutMs });
    }
  }

  /**
   * Confirms code-server's save dialog (a quick input titled `title`) once it offers `fileName`:
   * it fills in its default (a folder and the file's name) asynchronously, and an OK pressed
   * before that lands is lost, so wait for the name, then press OK until the dialog closes.
   */
  async confirmSaveDialog(title: RegExp, fileName: string): Promise<void> {
    const dialog = this.quickInput.filter({ hasText: title });
    const input = dialog.locator('.quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: this.timeoutMs });
    const deadline = Date.now() + this.timeoutMs;
    while (!(await input.inputValue()).endsWith(fileName)) {
      if (Date.now() > deadline) {
        throw new Error(`the save dialog "${title.source}" did not offer ${fileName}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      await dialog
        .getByRole('button', { name: 'OK' })
        .click({ timeout: 5_000 })
        .catch(() => undefined);
      if (
        await dialog.waitFor({ state: 'hidden', timeout: 3_000 }).then(
          () => true,
          () => false,
        )
      ) {
        return;
      }
    }
    throw new Error(`the save dialog "${title.source}" did not close`);
  }

  /** The quick input widget (palette, quick pick and input box share it). */
  get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  private async openPalette(): Promise<Locator> {
    const input = this.quickInput.locator('.quick-input-box input');
    // F1 is ignored while the workbench is still moving focus around after load; ask again.
    for (let attempt = 0; ; attempt++) {
      await this.page.keyboard.press('F1');
      try {
        await input.waitFor({ state: 'visible', timeout: 3_000 });
        return input;
      } catch (err) {
        if (attempt >= 5) {
          throw err;
        }
        await this.page
          .locator('.part.statusbar')
          .click({ position: { x: 5, y: 5 } })
          .catch(() => undefined);
      }
    }
  }

  /**
   * Runs a command from the Command Palette by its full title ("Category: Title"). The palette
   * lists what was registered when it opened, so a command that is not there yet (extension
   * still loading) is looked for again in a fresh palette until the timeout.
   */
  async runCommand(title: string, timeoutMs = this.timeoutMs): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const input = await this.openPalette();
      await input.fill(`>${title}`);
      const row = this.paletteRow(title);
      try {
        await row.waitFor({ timeout: Math.min(5_000, Math.max(1_000, deadline - Date.now())) });
      } catch (err) {
        await this.page.keyboard.press('Escape');
        if (Date.now() >= deadline) {
          throw new Error(
            `the Command Palette has no command "${title}" (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`,
          );
        }
        continue;
      }
      await row.click();
      await this.quickInput
        .locator('.quick-input-list')
        .waitFor({ state: 'hidden', timeout: this.timeoutMs })
        .catch(() => undefined);
      return;
    }
  }

  private paletteRow(title: string): Locator {
    return this.quickInput
      .locator('.quick-input-list .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: exactly(title) }) })
      .first();
  }

  /** Whether the palette offers a command with this exact title. */
  async hasCommand(title: string): Promise<boolean> {
    const input = await this.openPalette();
    await input.fill(`>${title}`);
    await this.quickInput
      .locator('.quick-input-list .monaco-list-row')
      .first()
      .waitFor({ timeout: this.timeoutMs })
      .catch(() => undefined);
    const found = (await this.paletteRow(title).count()) > 0;
    await this.page.keyboard.press('Escape');
    return found;
  }

  /**
   * Waits for a quick input (input box or quick pick) whose title or prompt matches `expect`,
   * types `text` and presses Enter. Returns whether the input was a password box.
   */
  async answerInput(expect: string | RegExp, text: string): Promise<{ password: boolean }> {
    const widget = this.quickInput.filter({ hasText: expect });
    const input = widget.locator('.quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: this.timeoutMs });
    const password = (await input.getAttribute('type')) === 'password';
    await input.fill(text);
    await input.press('Enter');
    return { password };
  }

  /** Picks an item of an open quick pick by its label. */
  async pickQuickItem(label: string | RegExp): Promise<void> {
    const row = this.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
    await row.waitFor({ timeout: this.timeoutMs });
    await row.click();
  }

  /** Toast notifications currently shown. */
  notificationToasts(text?: string | RegExp): Locator {
    const toasts = this.page.locator('.notifications-toasts .notification-toast');
    return text === undefined ? toasts : toasts.filter({ hasText: text });
  }

  async waitForNotification(text: string | RegExp): Promise<Locator> {
    const toast = this.notificationToasts(text).first();
    await toast.waitFor({ timeout: this.timeoutMs });
    return toast;
  }

  async notificationTexts(): Promise<string[]> {
    return (await this.notificationToasts().locator('.notification-list-item-message').allTextContents()).map((t) =>
      t.trim(),
    );
  }

  /** Clicks a button (e.g. "Sign In") on the notification matching `text`. */
  async clickNotificationButton(text: string | RegExp, button: string): Promise<void> {
    const toast = await this.waitForNotification(text);
    await toast
      .locator('.monaco-button', { hasText: exactly(button) })
      .first()
      .click();
  }

  /** The open modal dialog once it shows `expect`: its message and detail as the page renders them. */
  async dialogText(expect: string | RegExp): Promise<{ message: string; detail: string; dialog: Locator }> {
    const dialog = this.page.locator('.monaco-dialog-box').filter({ hasText: expect }).first();
    await dialog.waitFor({ timeout: this.timeoutMs });
    const message = (await dialog.locator('.dialog-message-text').innerText()).trim();
    const detail = (await dialog.locator('.dialog-message-detail').innerText()).trim();
    return { message, detail, dialog };
  }

  /** A modal dialog's button (e.g. a delete confirmation). */
  async clickDialogButton(button: string): Promise<void> {
    const btn = this.page
      .locator('.monaco-dialog-box .dialog-buttons .monaco-button', { hasText: exactly(button) })
      .first();
    await btn.waitFor({ timeout: this.timeoutMs });
    await btn.click();
  }

  /**
   * The row of an extension in the open "Running Extensions" editor, by its display name. The
   * list is sorted by activation time and renders only the rows in view: VS Code 1.139 opens it
   * in a modal about nine rows high, beside more running built-ins than 1.100, so an extension
   * that activated quickly can sit below them, out of the DOM. Walks the list with the arrow keys
   * (each reveals the row it focuses; Home again at the end, while the list may still grow).
   */
  async runningExtensionRow(name: string): Promise<Locator> {
    const list = this.page.locator('.part.editor .runtime-extensions-editor .monaco-list').first();
    const rows = list.locator('.monaco-list-row');
    const row = rows.filter({ hasText: name }).first();
    await rows.first().waitFor({ timeout: this.timeoutMs });
    if ((await row.count()) > 0) {
      return row;
    }
    const deadline = Date.now() + this.timeoutMs;
    await rows.first().click();
    while (
      !(await row.waitFor({ state: 'attached', timeout: 250 }).then(
        () => true,
        () => false,
      ))
    ) {
      if (Date.now() > deadline) {
        throw new Error(`Running Extensions does not list "${name}"`);
      }
      const focused = list.locator('.monaco-list-row.focused').first();
      // The list re-renders as extensions finish activating: a row clicked before may be gone, and
      // with it the focus. Focus the list again instead of waiting for a focused row.
      if ((await focused.count()) === 0) {
        await rows.first().click();
        continue;
      }
      const atEnd = (await focused.getAttribute('aria-posinset')) === (await focused.getAttribute('aria-setsize'));
      await this.page.keyboard.press(atEnd ? 'Home' : 'ArrowDown');
    }
    return row;
  }

  /** The tab labels of the editor area. */
  async editorTabs(): Promise<string[]> {
    return (await this.page.locator('.part.editor .tabs-container .tab .label-name').allTextContents()).map((t) =>
      t.trim(),
    );
  }

  async waitForEditorTab(label: string | RegExp): Promise<Locator> {
    const tab = this.page.locator('.part.editor .tabs-container .tab', { hasText: label }).first();
    await tab.waitFor({ timeout: this.timeoutMs });
    return tab;
  }

  /** Text of the visible output channel (Output panel) once it contains `expect`. */
  async waitForOutput(expect: string | RegExp): Promise<string> {
    const lines = this.page.locator('.part.panel .monaco-editor .view-lines', { hasText: expect }).first();
    await lines.waitFor({ timeout: this.timeoutMs });
    return (await lines.innerText()).replace(/\u00a0/g, ' ');
  }

  /**
   * The inner frame of a webview whose document has `selector`. Webviews are two nested
   * iframes (iframe.webview.ready > iframe#active-frame); several may exist, so look at each.
   */
  async webviewFrame(selector: string, timeoutMs = this.timeoutMs): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const frame of this.page.frames()) {
        if (frame.name() !== 'active-frame' && !/webview/i.test(frame.url())) {
          continue;
        }
        try {
          if ((await frame.locator(selector).count()) > 0) {
            return frame;
          }
        } catch {
          // the frame went away while we looked
        }
      }
      if (Date.now() > deadline) {
        throw new Error(`no webview contains ${selector} after ${Math.round(timeoutMs / 1000)} s`);
      }
      await this.page.waitForEvent('framenavigated', { timeout: 500 }).catch(() => undefined);
    }
  }

  /**
   * Reloads the window the way a user does ("Developer: Reload Window": the workbench shuts down
   * properly and saves its state, which a bare page reload may not) and waits for the new one.
   */
  async reload(): Promise<void> {
    const reloaded = this.page.waitForEvent('domcontentloaded', { timeout: 60_000 });
    await this.runCommand('Developer: Reload Window');
    await reloaded;
    await this.waitForReady();
  }
}
