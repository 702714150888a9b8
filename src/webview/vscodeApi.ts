// The webview's handle on its host, as VS Code injects it (acquireVsCodeApi, once per page).
import type { PersistedState, WebviewMessage } from '../runPanel/protocol';

export interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: PersistedState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export function vscodeApi(): VsCodeApi {
  return acquireVsCodeApi();
}
