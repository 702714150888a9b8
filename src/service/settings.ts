// The extension's settings, read fresh each time so that changes apply without a reload.
import * as vscode from 'vscode';
import { DEFAULT_PAGE_SIZE, FILE_PURPOSES, type FilePurpose } from '../api/types';
import { clampPageSize } from '../common/pageSize';

export const SETTINGS_SECTION = 'agentRuntime';
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';

export interface AgentRuntimeSettings {
  baseUrl: string;
  pageSize: number;
  defaultPurpose: FilePurpose;
}

/**
 * The base URL as the user (not a workspace) set it, or the default: the only service the
 * AGENT_RUNTIME_API_KEY environment key may go to when AGENT_RUNTIME_BASE_URL does not name one.
 * A trusted workspace's .vscode/settings.json can point agentRuntime.baseUrl anywhere, so its
 * value never decides where an environment secret is sent.
 */
export function userLevelBaseUrl(): string {
  const inspected = vscode.workspace.getConfiguration(SETTINGS_SECTION).inspect<unknown>('baseUrl');
  const value = inspected?.globalValue;
  return typeof value === 'string' && value.trim() ? value.trim() : DEFAULT_BASE_URL;
}

export function readSettings(): AgentRuntimeSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const purpose = config.get<unknown>('defaultPurpose', 'task_input');
  const baseUrl = config.get<unknown>('baseUrl');
  return {
    // A hand-edited settings.json can hold anything: fall back rather than fail activation.
    baseUrl: typeof baseUrl === 'string' && baseUrl.trim() ? baseUrl.trim() : DEFAULT_BASE_URL,
    pageSize: clampPageSize(config.get<unknown>('pageSize', DEFAULT_PAGE_SIZE)),
    defaultPurpose: typeof purpose === 'string' && (FILE_PURPOSES as readonly string[]).includes(purpose) ? (purpose as FilePurpose) : 'task_input',
  };
}
