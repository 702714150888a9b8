// The extension's settings, read fresh each time so that changes apply without a reload.
import * as vscode from 'vscode';
import type { NetworkSettings, ProxySupport } from '../api/network/settings';
import { clampPageSize } from '../api/pageSize';
import { DEFAULT_PAGE_SIZE, FILE_PURPOSES, type FilePurpose } from '../api/types';

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
    defaultPurpose:
      typeof purpose === 'string' && (FILE_PURPOSES as readonly string[]).includes(purpose)
        ? (purpose as FilePurpose)
        : 'task_input',
  };
}

/** VS Code's own network settings that the extension's HTTP client follows. */
export const NETWORK_SECTION = 'http';

/**
 * The `http.*` settings as the Node transport takes them. Like VS Code's own proxy resolver,
 * only the user-level value counts (a workspace cannot route traffic through a proxy of its
 * choosing), then the default. The environment (HTTPS_PROXY, NO_PROXY, NODE_EXTRA_CA_CERTS) is
 * read by the transport itself.
 */
export function readNetworkSettings(): NetworkSettings {
  const config = vscode.workspace.getConfiguration(NETWORK_SECTION);
  const user = <T>(key: string, valid: (v: unknown) => v is T): T | undefined => {
    const inspected = config.inspect<unknown>(key);
    const value = inspected?.globalValue ?? inspected?.defaultValue;
    return valid(value) ? value : undefined;
  };
  const isString = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
  const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
  const isList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
  const isSupport = (v: unknown): v is ProxySupport =>
    v === 'off' || v === 'on' || v === 'fallback' || v === 'override';
  return {
    proxy: user('proxy', isString)?.trim(),
    proxyAuthorization: user('proxyAuthorization', isString),
    noProxy: user('noProxy', isList),
    proxyStrictSSL: user('proxyStrictSSL', isBoolean),
    proxySupport: user('proxySupport', isSupport),
    systemCertificates: user('systemCertificates', isBoolean),
  };
}
