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
  const pageSize = Math.round(Number(config.get<unknown>('pageSize', DEFAULT_PAGE_SIZE)));
  const purpose = config.get<unknown>('defaultPurpose', 'task_input');
  const baseUrl = config.get<unknown>('baseUrl');
  return {
    // A hand-edited settings.json can hold anything: fall back rather than fail activation.
    baseUrl: typeof baseUrl === 'string' && baseUrl.trim() ? baseUrl.trim() : DEFAULT_BASE_URL,
    pageSize: Number.isFinite(pageSize) ? Math.min(MAX_PAGE_SIZE, Math.max(1, pageSize)) : DEFAULT_PAGE_SIZE,
    defaultPurpose: typeof purpose === 'string' && (FILE_PURPOSES as readonly string[]).includes(purpose) ? (purpose as FilePurpose) : 'task_input',
  };
}
