// The credential store: one secret per base URL, a session-only fallback, and the environment
// key sent only to the origin it is bound to.
import '../views/vscodeStub';
import * as assert from 'node:assert/strict';
import { API_KEY_ENV, API_KEY_URL_ENV, CredentialStore } from '../../../src/auth/credentialStore';
import { CapturingLogger } from '../api/fixtures';

class FakeSecrets {
  readonly values = new Map<string, string>();
  reads = 0;
  failNext = false;
  private listeners: Array<(e: { key: string }) => void> = [];
  onDidChange = (l: (e: { key: string }) => void) => {
    this.listeners.push(l);
    return { dispose: () => undefined };
  };
  async get(key: string) {
    this.reads++;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('keyring locked');
    }
    return this.values.get(key);
  }
  /** Another window stored a key: VS Code tells every window. */
  changeElsewhere(key: string, value: string) {
    this.values.set(key, value);
    for (const l of this.listeners) {
      l({ key });
    }
  }
  async store(key: string, value: string) {
    this.values.set(key, value);
    for (const l of this.listeners) {
      l({ key });
    }
  }
  async delete(key: string) {
    this.values.delete(key);
  }
  async keys() {
    return [...this.values.keys()];
  }
}

function credentialStore(env: Record<string, string> = {}, userBaseUrl = 'http://127.0.0.1:8787') {
  const secrets = new FakeSecrets();
  const log = new CapturingLogger();
  const store = new CredentialStore(secrets, log as never, () => userBaseUrl, env);
  return { store, secrets, log };
}

describe('auth/credentialStore', () => {
  it('keeps one key per base URL: a key for one service is never offered to another', async () => {
    const { store, secrets } = credentialStore();
    await store.store('https://a.example', 'key-a');
    await store.store('https://b.example', 'key-b');
    assert.equal(await store.get('https://a.example'), 'key-a');
    assert.equal(await store.get('https://b.example'), 'key-b');
    assert.equal(await store.get('https://c.example'), undefined);
    assert.equal(secrets.values.size, 2, 'two secrets, one per service');
    await store.delete('https://a.example');
    assert.equal(await store.get('https://a.example'), undefined);
    assert.equal(await store.get('https://b.example'), 'key-b', 'signing out of one keeps the other');
  });

  it('keeps a session-only key for its service only', async () => {
    const { store } = credentialStore();
    store.storeForSession('https://a.example', 'temp');
    assert.deepEqual(await store.find('https://a.example'), { key: 'temp', source: 'session' });
    assert.equal(await store.get('https://b.example'), undefined);
  });

  it('sends the environment key only to the user-level base URL when no origin is named', async () => {
    const { store } = credentialStore({ [API_KEY_ENV]: 'env-key' }, 'https://service.example');
    assert.deepEqual(await store.find('https://service.example'), { key: 'env-key', source: 'environment' });
    assert.equal(
      await store.get('https://service.example:443'),
      'env-key',
      'the same origin spelled with its default port',
    );
    // What a workspace's .vscode/settings.json could point the extension at:
    assert.equal(await store.get('https://attacker.example'), undefined);
    assert.equal(await store.get('http://service.example'), undefined, 'another scheme is another origin');
  });

  it('binds the environment key to AGENT_RUNTIME_BASE_URL when it is set', async () => {
    const { store, log } = credentialStore(
      { [API_KEY_ENV]: 'env-key', [API_KEY_URL_ENV]: 'https://named.example/' },
      'https://user.example',
    );
    assert.equal(await store.get('https://named.example'), 'env-key');
    assert.equal(await store.get('https://user.example'), undefined);
    await store.get('https://user.example');
    const warnings = log.lines.filter((l) => l.includes(API_KEY_ENV));
    assert.equal(warnings.length, 1, 'said once, not on every request');
    assert.ok(!log.lines.join('\n').includes('env-key'), 'the key itself is never logged');
  });

  // What a prefix check, a host-only check or a lenient parse would let through: each of these
  // only starts like the bound origin, or names it as a user name, and is another origin.
  const LOOKALIKES = [
    'https://service.example.attacker.net',
    'https://service.example.attacker.net/v1',
    'https://service.example:8443',
    'https://service.example:8443/',
    'https://service.example@evil.example',
    'https://service.example@evil.example/',
    'https://service.example:443@evil.example',
    'https://service.examplex',
    'https://service.example-evil.example',
    'http://service.example',
    'wss://service.example',
    'ftp://service.example',
    'https://sub.service.example',
    'not a url',
    '',
  ];

  it('gives the environment key to no address that merely starts like the user-level origin', async () => {
    const { store } = credentialStore({ [API_KEY_ENV]: 'env-key' }, 'https://service.example');
    for (const url of LOOKALIKES) {
      assert.equal(await store.get(url), undefined, `${JSON.stringify(url)} got the key`);
    }
    assert.equal(await store.get('https://service.example/v1/'), 'env-key', 'a path on the bound origin still gets it');
    assert.equal(await store.get('https://SERVICE.example'), 'env-key', 'host names are case-insensitive');
  });

  it('gives the environment key to no address that merely starts like AGENT_RUNTIME_BASE_URL', async () => {
    const { store } = credentialStore(
      { [API_KEY_ENV]: 'env-key', [API_KEY_URL_ENV]: 'https://service.example' },
      'https://user.example',
    );
    for (const url of LOOKALIKES) {
      assert.equal(await store.get(url), undefined, `${JSON.stringify(url)} got the key`);
    }
    assert.equal(await store.get('https://service.example'), 'env-key');
  });

  it('binds the environment key to the port it names, and to no origin when the bound URL cannot be parsed', async () => {
    const withPort = credentialStore({
      [API_KEY_ENV]: 'env-key',
      [API_KEY_URL_ENV]: 'https://service.example:8443',
    }).store;
    assert.equal(await withPort.get('https://service.example:8443/v1'), 'env-key');
    assert.equal(await withPort.get('https://service.example'), undefined, 'the default port is another origin');
    assert.equal(await withPort.get('https://service.example:84430'), undefined);
    const unparsable = credentialStore(
      { [API_KEY_ENV]: 'env-key', [API_KEY_URL_ENV]: 'service.example' },
      'https://service.example',
    ).store;
    assert.equal(
      await unparsable.get('https://service.example'),
      undefined,
      'an unparsable AGENT_RUNTIME_BASE_URL binds the key nowhere',
    );
  });

  it('prefers a stored key over the environment', async () => {
    const { store } = credentialStore({ [API_KEY_ENV]: 'env-key' }, 'https://service.example');
    await store.store('https://service.example', 'stored');
    assert.deepEqual(await store.find('https://service.example'), { key: 'stored', source: 'secretStorage' });
  });

  it('reads SecretStorage once for many requests, and again once a key changed here or elsewhere', async () => {
    const { store, secrets } = credentialStore();
    await store.store('https://a.example', 'key-1');
    const before = secrets.reads;
    assert.deepEqual(
      await Promise.all([
        store.get('https://a.example'),
        store.get('https://a.example'),
        store.get('https://a.example'),
      ]),
      ['key-1', 'key-1', 'key-1'],
    );
    assert.equal(await store.get('https://a.example'), 'key-1');
    assert.equal(secrets.reads - before, 1, 'one read of the store for four requests');
    secrets.changeElsewhere('agentRuntime.apiKey:https://a.example', 'key-2');
    assert.equal(await store.get('https://a.example'), 'key-2', 'a key stored in another window applies at once');
    await store.store('https://a.example', 'key-3');
    assert.equal(await store.get('https://a.example'), 'key-3');
    await store.delete('https://a.example');
    assert.equal(await store.get('https://a.example'), undefined, 'signed out: no key kept in memory');
  });

  it('does not keep a failed read: the next request asks the store again', async () => {
    const { store, secrets, log } = credentialStore();
    await store.store('https://a.example', 'key-1');
    secrets.failNext = true;
    assert.equal(await store.get('https://a.example'), undefined);
    assert.match(log.lines.join('\n'), /Secret storage could not be read: keyring locked/);
    assert.equal(await store.get('https://a.example'), 'key-1');
  });
});
