// The extension's settings, read fresh each time so that changes apply without a reload.
import * as vscode from 'vscode';
import { DEFAULT_PAGE_SIZE, FILE_PURPOSES, FilePurpose, MAX_PAGE_SIZE } from '../api/types';

export const SETTINGS_SECTION = 'agentRuntime';
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';

export interface AgentRuntimeSettings {
  baseUrl: string;
  pageSize: number;
  defaultPurpose: FilePurpose;
}

export function readSettings(): AgentRuntimeSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const pageSize = Math.round(Number(config.get<number>('pageSize', DEFAULT_PAGE_SIZE)));
  const purpose = config.get<string>('defaultPurpose', 'task_input');
  return {
    baseUrl: (config.get<string>('baseUrl') || DEFAULT_BASE_URL).trim(),
    // A hand-edited settings.json can hold anything: clamp rather than fail.
    pageSize: Number.isFinite(pageSize) ? Math.min(MAX_PAGE_SIZE, Math.max(1, pageSize)) : DEFAULT_PAGE_SIZE,
    defaultPurpose: (FILE_PURPOSES as readonly string[]).includes(purpose) ? (purpose as FilePurpose) : 'task_input',
  };
}
