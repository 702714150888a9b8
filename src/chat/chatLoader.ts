// Registers the @agent-runtime chat participant at activation (VS Code needs it before the first
// request), but its handler and follow-ups (chatHandler.ts with chatText.ts) load at the first
// request. In the bundle, esbuild.js (LAZY_FILES) resolves the require below to a guard that loads
// dist/chat.js, a bundle that takes every module it shares with extension.js from extension.js's
// `__shared` (one class, one singleton); under tsc it is the plain module.
import * as vscode from 'vscode';
import { CHAT_PARTICIPANT_ID } from '../common/ids';
import type * as ChatHandler from './chatHandler';
import type { ChatDeps } from './chatHandler';

let loaded: typeof ChatHandler | undefined;

function loadChatHandler(): typeof ChatHandler {
  // Synchronous on purpose: the file is local, and the request then runs as it did before.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./chatHandler') as typeof ChatHandler;
  return loaded;
}

/** `handler`: the registered handler itself (the extension-host tests call it with a stream of their own). */
export function registerChatParticipant(
  deps: ChatDeps,
  extensionUri: vscode.Uri,
): { participant: vscode.Disposable; handler: vscode.ChatRequestHandler } {
  let handle: vscode.ChatRequestHandler | undefined;
  // async: a broken chat.js rejects the request (VS Code shows the message, which says to
  // reinstall) instead of throwing into VS Code's caller.
  const handler: vscode.ChatRequestHandler = async (request, context, stream, token) => {
    handle ??= loadChatHandler().createChatHandler(deps);
    return handle(request, context, stream, token);
  };
  const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.png');
  participant.followupProvider = {
    provideFollowups: (result, context, token) =>
      loadChatHandler().chatFollowups.provideFollowups(result, context, token),
  };
  return { participant, handler };
}
