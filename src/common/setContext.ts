// Writes a context key (what `when` clauses of welcome views and menus read).
import * as vscode from 'vscode';

export type SetContext = (key: string, value: boolean) => void;

export const setContextCommand: SetContext = (key, value) => {
  void vscode.commands.executeCommand('setContext', key, value);
};
