// Small DOM helpers for the run panel webview. Text only ever goes in through textContent, and
// through visibleText (src/common/visibleText.ts), the one escaping rule for server text: bidi,
// invisible and control characters show as marks (`\u202e`) instead of reordering or hiding
// what a row, a detail, the approval card, the outline or the header says. Class names only
// ever come from this code, never from the server.
import { visibleText } from '../common/visibleText';

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) {
    node.className = className;
  }
  if (text !== undefined) {
    node.textContent = visibleText(text);
  }
  return node;
}

/** An element the page's CSS, scripts or tests find by its id. */
export function elWithId<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  id: string,
  className?: string,
): HTMLElementTagNameMap[K] {
  const node = el(tag, className);
  node.id = id;
  return node;
}

/** A codicon glyph (decorative; the text beside it carries the meaning). */
export function codicon(name: string, tone = '', extra = ''): HTMLSpanElement {
  const span = el('span');
  setIcon(span, name, tone, extra);
  span.setAttribute('aria-hidden', 'true');
  return span;
}

/** `extra`: a class of the page's own the glyph keeps (set in one write: a class change costs a style pass). */
export function setIcon(span: HTMLElement, name: string, tone = '', extra = ''): void {
  const className = `codicon codicon-${name}${tone ? ` tone-${tone}` : ''}${extra ? ` ${extra}` : ''}`;
  if (span.className !== className) {
    span.className = className;
  }
}

/**
 * Shows or hides an element, writing only on a change: the draws run every frame while a run
 * streams, and writing even the same attribute value costs the page a style pass.
 */
export function setHidden(node: HTMLElement, hidden: boolean): void {
  if (node.hidden !== hidden) {
    node.hidden = hidden;
  }
}

/** The same for an attribute. */
export function setAttr(node: Element, name: string, value: string): void {
  if (node.getAttribute(name) !== value) {
    node.setAttribute(name, value);
  }
}

/** The same for a button's disabled state. */
export function setDisabled(node: HTMLButtonElement, disabled: boolean): void {
  if (node.disabled !== disabled) {
    node.disabled = disabled;
  }
}

/** Sets text (one line: line breaks show as `\n`) only when it changed (cheap to call every frame). */
export function setText(node: Node, text: string): void {
  const shown = visibleText(text);
  if (node.textContent !== shown) {
    node.textContent = shown;
  }
}

/** Sets the text of a block that shows several lines (pretty-printed JSON): line feeds stay. */
export function setBlockText(node: Node, text: string): void {
  const shown = visibleText(text, { lineBreaks: true });
  if (node.textContent !== shown) {
    node.textContent = shown;
  }
}

/** A tooltip of outside text, under the same rule as the text. */
export function setTitle(node: HTMLElement, text: string): void {
  node.title = visibleText(text);
}

export function iconButton(id: string, icon: string, label: string, withText = false): HTMLButtonElement {
  const button = el('button', withText ? 'text-button' : 'icon-button');
  button.id = id;
  button.type = 'button';
  button.append(codicon(icon));
  if (withText) {
    button.append(el('span', 'button-label', label));
  }
  button.title = label;
  button.setAttribute('aria-label', label);
  return button;
}

/** A labelled button that stays hidden until the state it acts on comes about. */
export function hiddenTextButton(id: string, icon: string, label: string): HTMLButtonElement {
  const button = iconButton(id, icon, label, true);
  button.hidden = true;
  return button;
}

export function setButtonLabel(button: HTMLButtonElement, label: string): void {
  if (button.title !== label) {
    button.title = label;
  }
  if (button.getAttribute('aria-label') !== label) {
    button.setAttribute('aria-label', label);
  }
  const text = button.querySelector('.button-label');
  if (text) {
    setText(text, label);
  }
}

/**
 * Sets a node's text with every occurrence of `query` (already lower-cased) wrapped in <mark>:
 * text nodes and elements built with DOM calls, so server text never becomes markup.
 */
export function setHighlightedText(node: HTMLElement, raw: string, query: string): void {
  const text = visibleText(raw);
  const key = query === '' ? '' : `${query}\u0000${text}`;
  if (node.dataset.hl === key && (key !== '' || node.textContent === text)) {
    return;
  }
  const lower = query === '' ? '' : text.toLowerCase();
  // Lower-casing that changes a string's length (rare scripts) would misplace the marks: no marks then.
  if (query === '' || lower.length !== text.length || !lower.includes(query)) {
    node.textContent = text;
    node.dataset.hl = '';
    return;
  }
  const parts: Node[] = [];
  let at = 0;
  for (let hit = lower.indexOf(query); hit >= 0; hit = lower.indexOf(query, hit + query.length)) {
    if (hit > at) {
      parts.push(document.createTextNode(text.slice(at, hit)));
    }
    parts.push(el('mark', 'find-match', text.slice(hit, hit + query.length)));
    at = hit + query.length;
  }
  if (at < text.length) {
    parts.push(document.createTextNode(text.slice(at)));
  }
  node.replaceChildren(...parts);
  node.dataset.hl = key;
}
