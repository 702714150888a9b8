// The composition root: activate() builds the services and registers views, commands and the
// run panel's serializer. Nothing else lives here.
import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Agent Runtime', { log: true });
  context.subscriptions.push(log);
  context.subscriptions.push(vscode.commands.registerCommand('agentRuntime.showLog', () => log.show()));
  log.info(`Agent Runtime ${context.extension.packageJSON.version} activated`);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
