// Small DOM helpers for the run panel webview. Text only ever goes in through textContent;
// class names only ever come from this code, never from the server.

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A codicon glyph (decorative; the text beside it carries the meaning). */
export function codicon(name: string, tone = ''): HTMLSpanElement {
  const span = el('span');
  setIcon(span, name, tone);
  span.setAttribute('aria-hidden', 'true');
  return span;
}

export function setIcon(span: HTMLElement, name: string, tone = ''): void {
  const className = `codicon codicon-${name}${tone ? ` tone-${tone}` : ''}`;
  if (span.className !== className) span.className = className;
}

/** Sets text only when it changed (cheap to call every frame). */
export function setText(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

export function iconButton(id: string, icon: string, label: string, withText = false): HTMLButtonElement {
  const button = el('button', withText ? 'text-button' : 'icon-button');
  button.id = id;
  button.type = 'button';
  button.append(codicon(icon));
  if (withText) button.append(el('span', 'button-label', label));
  button.title = label;
  button.setAttribute('aria-label', label);
  return button;
}

export function setButtonLabel(button: HTMLButtonElement, label: string): void {
  button.title = label;
  button.setAttribute('aria-label', label);
  const text = button.querySelector('.button-label');
  if (text) setText(text, label);
}
