// Which way a request goes, as one pure function: VS Code's order of settings and environment,
// the noProxy forms, loopback always direct, and unusable proxy addresses.
import * as assert from 'node:assert/strict';
import {
  matchesNoProxy,
  type ProxyRoute,
  redactProxyUrl,
  resolveProxyRoute,
  splitNoProxy,
} from '../../../src/api/network/proxyRoute';
import type { NetworkSettings } from '../../../src/api/network/settings';

const TARGET = 'https://agents.example.com';

function route(settings: NetworkSettings, target = TARGET): ProxyRoute {
  return resolveProxyRoute(target, { env: {}, ...settings });
}

function proxyOf(r: ProxyRoute): string {
  assert.equal(r.kind, 'proxy', JSON.stringify(r));
  return r.kind === 'proxy' ? `${r.proxy.url.href} ${r.proxy.source}` : '';
}

describe('api/network proxy route', () => {
  describe('order of settings', () => {
    it('goes direct when nothing is configured', () => {
      assert.deepEqual(route({}), { kind: 'direct', reason: 'no proxy configured' });
    });

    it('takes http.proxy before any environment variable', () => {
      assert.equal(
        proxyOf(route({ proxy: 'http://setting:3128', env: { HTTPS_PROXY: 'http://env:3128' } })),
        'http://setting:3128/ http.proxy',
      );
    });

    it('falls back to https_proxy, HTTPS_PROXY, http_proxy, HTTP_PROXY in that order (as VS Code)', () => {
      const all = {
        https_proxy: 'http://a:1',
        HTTPS_PROXY: 'http://b:1',
        http_proxy: 'http://c:1',
        HTTP_PROXY: 'http://d:1',
      };
      assert.equal(proxyOf(route({ env: all })), 'http://a:1/ https_proxy');
      assert.equal(proxyOf(route({ env: { ...all, https_proxy: '' } })), 'http://b:1/ HTTPS_PROXY');
      assert.equal(
        proxyOf(route({ env: { http_proxy: 'http://c:1', HTTP_PROXY: 'http://d:1' } })),
        'http://c:1/ http_proxy',
      );
      assert.equal(proxyOf(route({ env: { HTTP_PROXY: 'http://d:1' } })), 'http://d:1/ HTTP_PROXY');
    });

    it('treats an empty or blank http.proxy as unset', () => {
      assert.equal(
        proxyOf(route({ proxy: '  ', env: { HTTPS_PROXY: 'http://env:8080' } })),
        'http://env:8080/ HTTPS_PROXY',
      );
    });

    it('reads a bare host:port as an http:// proxy', () => {
      assert.equal(proxyOf(route({ env: { HTTPS_PROXY: 'proxy.corp:8080' } })), 'http://proxy.corp:8080/ HTTPS_PROXY');
    });

    it('turns proxying off entirely with http.proxySupport "off", and on with the other three', () => {
      const settings = { proxy: 'http://p:1', env: { HTTPS_PROXY: 'http://e:1' } };
      assert.deepEqual(route({ ...settings, proxySupport: 'off' }), { kind: 'direct', reason: 'proxySupport off' });
      for (const proxySupport of ['on', 'fallback', 'override'] as const) {
        assert.equal(proxyOf(route({ ...settings, proxySupport })), 'http://p:1/ http.proxy');
      }
    });

    it('carries http.proxyAuthorization with the proxy, whichever source it came from', () => {
      const r = route({ proxyAuthorization: ' Basic dTpw ', env: { HTTPS_PROXY: 'http://e:1' } });
      assert.equal(r.kind === 'proxy' ? r.proxy.authorization : undefined, 'Basic dTpw');
    });

    it('reads the environment from process.env when the settings carry none', () => {
      const saved = process.env.HTTPS_PROXY;
      process.env.HTTPS_PROXY = 'http://from-process:3128';
      try {
        const r = resolveProxyRoute(TARGET, {});
        assert.equal(r.kind === 'proxy' ? r.proxy.url.host : r.kind, 'from-process:3128');
      } finally {
        if (saved === undefined) {
          delete process.env.HTTPS_PROXY;
        } else {
          process.env.HTTPS_PROXY = saved;
        }
      }
    });
  });

  describe('always direct', () => {
    it('for loopback targets, whatever is configured (plain http never meets a proxy)', () => {
      const settings = { proxy: 'http://p:1', env: { HTTPS_PROXY: 'http://e:1' } };
      for (const target of [
        'http://127.0.0.1:8080',
        'https://localhost',
        'http://[::1]:9',
        'https://127.5.6.7',
        'http://LOCALHOST:1',
      ]) {
        assert.deepEqual(route(settings, target), { kind: 'direct', reason: 'loopback' }, target);
      }
    });
  });

  describe('noProxy', () => {
    it('http.noProxy, when it has entries, replaces NO_PROXY', () => {
      const env = { HTTPS_PROXY: 'http://e:1', NO_PROXY: 'agents.example.com' };
      assert.deepEqual(route({ env }), { kind: 'direct', reason: 'NO_PROXY' });
      assert.equal(proxyOf(route({ env, noProxy: ['other.example'] })), 'http://e:1/ HTTPS_PROXY');
      assert.deepEqual(route({ env, noProxy: ['example.com'] }), { kind: 'direct', reason: 'http.noProxy' });
      assert.deepEqual(route({ env, noProxy: ['', '  '] }), { kind: 'direct', reason: 'NO_PROXY' });
    });

    it('NO_PROXY applies to the http.proxy setting too, and no_proxy is read before NO_PROXY', () => {
      assert.deepEqual(route({ proxy: 'http://p:1', env: { no_proxy: '.example.com', NO_PROXY: 'nothing.invalid' } }), {
        kind: 'direct',
        reason: 'NO_PROXY',
      });
      assert.deepEqual(route({ proxy: 'http://p:1', env: { no_proxy: '', NO_PROXY: 'example.com' } }), {
        kind: 'direct',
        reason: 'NO_PROXY',
      });
    });

    it('splits NO_PROXY on commas and white space', () => {
      assert.deepEqual(splitNoProxy(' a.com,b.com  c.com,,\td.com '), ['a.com', 'b.com', 'c.com', 'd.com']);
      assert.deepEqual(splitNoProxy(undefined), []);
    });

    it('matches a host name, its subdomains, .domain and *.domain, case and trailing dot aside', () => {
      for (const entry of ['example.com', '.example.com', '*.example.com', 'EXAMPLE.COM', 'example.com.']) {
        assert.ok(matchesNoProxy('agents.example.com', 443, [entry]), entry);
        assert.ok(matchesNoProxy('Agents.Example.Com.', 443, [entry]), entry);
      }
      assert.ok(matchesNoProxy('example.com', 443, ['.example.com']));
      assert.ok(!matchesNoProxy('badexample.com', 443, ['example.com']));
      assert.ok(!matchesNoProxy('example.com.evil', 443, ['example.com']));
      assert.ok(!matchesNoProxy('agents.example.com', 443, ['agents.example.co']));
    });

    it('honours a port when the entry names one', () => {
      assert.ok(matchesNoProxy('agents.example.com', 8443, ['example.com:8443']));
      assert.ok(!matchesNoProxy('agents.example.com', 443, ['example.com:8443']));
      assert.deepEqual(route({ env: { HTTPS_PROXY: 'http://e:1', NO_PROXY: 'agents.example.com:443' } }), {
        kind: 'direct',
        reason: 'NO_PROXY',
      });
      assert.equal(
        route(
          { env: { HTTPS_PROXY: 'http://e:1', NO_PROXY: 'agents.example.com:443' } },
          'https://agents.example.com:8443',
        ).kind,
        'proxy',
      );
    });

    it('matches IP addresses exactly or by CIDR range, never as a name suffix', () => {
      assert.ok(matchesNoProxy('10.1.2.3', 443, ['10.1.2.3']));
      assert.ok(!matchesNoProxy('10.1.2.3', 443, ['2.3']));
      assert.ok(!matchesNoProxy('110.1.2.3', 443, ['10.1.2.3']));
      assert.ok(matchesNoProxy('10.1.2.3', 443, ['10.0.0.0/8']));
      assert.ok(!matchesNoProxy('11.1.2.3', 443, ['10.0.0.0/8']));
      assert.ok(!matchesNoProxy('agents.example.com', 443, ['10.0.0.0/8']));
      assert.ok(matchesNoProxy('[fd00::5]', 443, ['fd00::/8']));
      assert.ok(matchesNoProxy('[fd00::5]', 443, ['fd00::5']));
      assert.ok(matchesNoProxy('[fd00::5]', 8443, ['[fd00::5]:8443']));
      assert.ok(!matchesNoProxy('[fd00::5]', 443, ['[fd00::5]:8443']));
      assert.ok(!matchesNoProxy('10.1.2.3', 443, ['10.0.0.0/99', 'not-an-ip/8']));
    });

    it('"*" exempts everything', () => {
      assert.ok(matchesNoProxy('anything.example', 1, ['*']));
      assert.deepEqual(route({ proxy: 'http://p:1', noProxy: ['*'] }), { kind: 'direct', reason: 'http.noProxy' });
    });
  });

  describe('unusable proxy addresses', () => {
    it('refuses a socks or other scheme rather than going direct', () => {
      assert.deepEqual(route({ proxy: 'socks5://p:1080' }), {
        kind: 'invalid',
        source: 'http.proxy',
        message: 'The proxy in http.proxy uses socks5://, which is not supported; use an http:// or https:// proxy.',
      });
    });

    it('refuses an address that is not a URL, naming where it came from', () => {
      const r = route({ env: { HTTPS_PROXY: 'http://exa mple:80' } });
      assert.equal(r.kind, 'invalid');
      assert.match(r.kind === 'invalid' ? r.message : '', /^The proxy address in HTTPS_PROXY is not a valid URL/);
    });
  });

  it('redacts the password of a proxy URL, keeping the user name', () => {
    assert.equal(redactProxyUrl(new URL('http://alice:s3cret@proxy.corp:3128')), 'http://alice:***@proxy.corp:3128');
    assert.equal(redactProxyUrl(new URL('http://:s3cret@proxy.corp:3128')), 'http://***@proxy.corp:3128');
    assert.equal(redactProxyUrl(new URL('https://proxy.corp')), 'https://proxy.corp');
  });
});
