// Which files a folder upload leaves out unless ticked: names that say they hold credentials.
import * as assert from 'node:assert/strict';
import { listedNames, looksSecret, looksSecretFile, splitSecrets } from '../../../src/upload/secretFiles';

describe('upload/secretFiles', () => {
  it('recognises environment files, private keys, SSH keys and token files by name, in any case', () => {
    const secret = [
      '.env',
      'app/.env',
      '.env.local',
      'web/.env.production',
      '.envrc',
      'deploy/prod.env',
      'certs/server.pem',
      'tls.key',
      'KEYS/Signing.KEY',
      'store.p12',
      'cert.pfx',
      'release.jks',
      'id_rsa',
      'home/.ssh/id_rsa.pub',
      'id_ed25519',
      'ID_ECDSA',
      'id_dsa',
      '.npmrc',
      'pkg/.npmrc',
      '.pypirc',
      '.netrc',
      '_netrc',
      '.git-credentials',
      '.pgpass',
      '.htpasswd',
      'conf/.aws/credentials',
      '.aws/config',
      '.ssh/config',
      '.ssh/known_hosts',
      '.gnupg/pubring.kbx',
      '.docker/config.json',
      'backslash\\.env',
    ];
    for (const name of secret) {
      assert.equal(looksSecret(name), true, name);
    }
  });

  it('leaves ordinary files alone, dotfiles that hold no secrets included', () => {
    const ordinary = [
      'README.md',
      'src/index.ts',
      '.gitignore',
      '.editorconfig',
      'docs/environment.md',
      'keyboard.txt',
      'monkey.ts',
      'notes.key.md',
      'id.txt',
      'env/settings.json',
      'src/env.ts',
      '.github/workflows/ci.yml',
      'ssh/notes.md',
    ];
    for (const name of ordinary) {
      assert.equal(looksSecret(name), false, name);
    }
  });

  it('splits files in order into the secret-looking and the others', () => {
    const files = [{ name: 'a.md' }, { name: '.env' }, { name: 'b.md' }, { name: 'id_rsa' }];
    assert.deepEqual(splitSecrets(files), {
      ordinary: [{ name: 'a.md' }, { name: 'b.md' }],
      secret: [{ name: '.env' }, { name: 'id_rsa' }],
    });
  });

  it("recognises command-line tools' token stores, by name and by the whole path of a file sent under its bare name", () => {
    for (const name of [
      '.config/gh/hosts.yml',
      'home/.config/gh/hosts.yml',
      '.config/hub',
      '.kube/config',
      '.docker/config.json',
      '.cargo/credentials.toml',
      '.terraform.d/credentials.tfrc.json',
      '.config/gcloud/application_default_credentials.json',
      '.gem/credentials',
    ]) {
      assert.equal(looksSecret(name), true, name);
    }
    assert.equal(looksSecretFile('hosts.yml', '/home/me/.config/gh/hosts.yml'), true);
    assert.equal(looksSecretFile('config', 'C:\\Users\\me\\.kube\\config'), true);
    assert.equal(
      looksSecretFile('hosts.yml', '/srv/ansible/inventory/hosts.yml'),
      false,
      'an inventory is no token store',
    );
    assert.equal(looksSecretFile('config', '/work/app/config'), false);
    const files = [
      { name: 'notes.md', path: '/home/me/notes.md' },
      { name: 'hosts.yml', path: '/home/me/.config/gh/hosts.yml' },
    ];
    assert.deepEqual(splitSecrets(files).secret, [files[1]]);
  });

  it('lists a bounded number of names, each cut, and counts the rest', () => {
    const names = Array.from({ length: 20 }, (_, i) => `f${i}.md`);
    assert.deepEqual(listedNames(names, 15), { listed: names.slice(0, 15), more: 5 });
    assert.deepEqual(listedNames(names.slice(0, 3), 15), { listed: names.slice(0, 3), more: 0 });
    const [long] = listedNames(['x'.repeat(1000)], 5, 160).listed;
    assert.equal(Array.from(long).length, 160);
    assert.ok(long.endsWith('…'));
  });
});
