// The transport the API suites run on: undici (the default), or fetch with
// AGENT_RUNTIME_TEST_TRANSPORT=fetch (Node's own fetch, standing in for a browser's; `npm run
// test:unit` runs this folder once more that way, see .mocharc.fetch.json). The suites import
// ApiClient from here: the real client, given the transport under test unless a test names one.
import { ApiClient as RealApiClient, type ApiClientOptions } from '../../../src/api/client';
import { fetchTransport } from '../../../src/api/fetchTransport';
import { undiciTransport } from '../../../src/api/network/undiciTransport';
import type { TransportFactory } from '../../../src/api/transport';

export type TransportName = 'undici' | 'fetch';

export const TRANSPORT: TransportName = process.env.AGENT_RUNTIME_TEST_TRANSPORT === 'fetch' ? 'fetch' : 'undici';

export const transportUnderTest: TransportFactory = TRANSPORT === 'fetch' ? fetchTransport : undiciTransport;

export class ApiClient extends RealApiClient {
  constructor(options: ApiClientOptions) {
    super({ transport: transportUnderTest, ...options });
  }
}

/**
 * `describe` for a suite about what only the Node transport has (proxies, private CAs, TLS
 * settings, the lazily loaded undici file): skipped on fetch, where the browser does all that.
 */
export const describeUndiciOnly: Mocha.SuiteFunction | Mocha.PendingSuiteFunction =
  TRANSPORT === 'undici' ? describe : describe.skip;
