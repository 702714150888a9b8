// The run panel's HTML shell: a strict CSP (no network, one nonce'd script), the stylesheets
// and the bundle. Pure string building so its policy can be tested without VS Code; the nonce
// is made here, fresh for every page, so no caller can hand in a predictable one.
export interface PanelHtmlParts {
  /** webview.cspSource */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  title: string;
  /** html `lang` */
  lang?: string;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource}`,
  ].join('; ');
}

/** 144 random bits, base64: a new one for every page load (Web Crypto: Node and a web worker alike). */
function newNonce(): string {
  return btoa(String.fromCharCode(...globalThis.crypto.getRandomValues(new Uint8Array(18))));
}

export function panelHtml(parts: PanelHtmlParts): string {
  const a = escapeAttribute;
  const nonce = newNonce();
  return `<!DOCTYPE html>
<html lang="${a(parts.lang ?? 'en')}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${a(contentSecurityPolicy(parts.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${a(parts.codiconUri)}">
<link rel="stylesheet" href="${a(parts.styleUri)}">
<title>${escapeText(parts.title)}</title>
</head>
<body>
<div id="app"></div>
<script nonce="${a(nonce)}" src="${a(parts.scriptUri)}"></script>
</body>
</html>`;
}

function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
