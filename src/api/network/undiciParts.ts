// The undici classes and calls the transport uses, gathered in one module so the extension can
// ship them as a file of their own (dist/undici.js, see esbuild.js) that loads at the first
// request instead of at every activation. Import only through loadUndici() (undici.ts).
import connectImpl from 'undici/lib/api/api-connect';
import requestImpl from 'undici/lib/api/api-request';
import AgentImpl from 'undici/lib/dispatcher/agent';
import PoolImpl from 'undici/lib/dispatcher/pool';
import ProxyAgentImpl from 'undici/lib/dispatcher/proxy-agent';

export const Agent = AgentImpl;
export const Pool = PoolImpl;
export const ProxyAgent = ProxyAgentImpl;
export const request = requestImpl;
export const connect = connectImpl;
