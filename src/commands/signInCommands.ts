// Sign In (a password input, checked with a cheap authenticated request before it is stored)
// and Sign Out. The key goes to SecretStorage, or to this session only when there is no keyring.
import * as vscode from 'vscode';
import { ApiClient } from '../api/client';
import { isApiError } from '../api/errors';
import { SecretStorageUnavailableError } from '../auth/credentialStore';
import { type CommandDeps } from '../commandSupport/commandDeps';
import { describeErrorForUser } from '../commandSupport/errorText';
import { withAbortSignal } from '../common/abortOn';
import { Commands, Settings } from '../common/ids';
import { askModal, notify } from '../common/notify';
import { readNetworkSettings } from '../service/settings';

export function registerSignInCommands(deps: CommandDeps): vscode.Disposable[] {
  return [
    // `options.apiKey` lets the extension-host tests sign in without the input box; it is never
    // logged. From anyone else (a command link, another extension) it is ignored and the user is
    // asked: a key handed in by a link would point this window's uploads at someone else's account.
    vscode.commands.registerCommand(
      Commands.signIn,
      deps.guard('Sign in', (options?: { apiKey?: string }) => {
        const given = typeof options?.apiKey === 'string' ? options.apiKey : undefined;
        if (given !== undefined && !deps.trustedAutomation) {
          deps.log.warn('Sign in: a key passed by a command was ignored; asking the user instead.');
        }
        return signIn(deps, deps.trustedAutomation ? given : undefined);
      }),
    ),
    vscode.commands.registerCommand(
      Commands.signOut,
      deps.guard('Sign out', () => signOut(deps)),
    ),
  ];
}

async function signIn(deps: CommandDeps, given?: string): Promise<boolean> {
  const baseUrl = deps.service.client.baseUrl; // throws the settings problem first, with its sentence
  let key = given?.trim();
  for (;;) {
    key ??= (
      await vscode.window.showInputBox({
        title: vscode.l10n.t('Agent Runtime: Sign In'),
        prompt: vscode.l10n.t('Paste the API key for {0}', baseUrl),
        placeHolder: vscode.l10n.t('API key'),
        password: true,
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('The API key cannot be empty.')),
      })
    )?.trim();
    if (!key) {
      return false;
    }
    const verdict = await verifyKey(deps, baseUrl, key, given === undefined);
    if (verdict === 'ok') {
      break;
    }
    if (verdict === 'cancel' || given !== undefined) {
      return false;
    }
    key = undefined; // rejected: ask again
  }
  try {
    await deps.credentials.store(baseUrl, key);
  } catch (err) {
    if (!(err instanceof SecretStorageUnavailableError)) {
      throw err;
    }
    const sessionOnly = vscode.l10n.t('Use for This Session');
    const choice = await askModal(
      'warn',
      vscode.l10n.t(
        'VS Code cannot store secrets on this machine (no keyring). Use the key for this session only? You will be asked again next time.',
      ),
      [],
      sessionOnly,
    );
    if (choice !== sessionOnly) {
      return false;
    }
    deps.credentials.storeForSession(baseUrl, key);
  }
  await deps.service.update();
  deps.log.info(`Signed in to ${baseUrl}`);
  void notify.info(vscode.l10n.t('Signed in to Agent Runtime at {0}.', baseUrl));
  return true;
}

/** 'ok' when the server accepts the key (or the user keeps it anyway), 'retry' when rejected. */
async function verifyKey(
  deps: CommandDeps,
  baseUrl: string,
  key: string,
  interactive: boolean,
): Promise<'ok' | 'retry' | 'cancel'> {
  // The same network route as the service's own client: behind a proxy the key is checked through it.
  const probe = new ApiClient({
    baseUrl,
    getApiKey: async () => key,
    logger: deps.log,
    maxRetries: 0,
    userAgent: deps.service.userAgent,
    network: readNetworkSettings(),
  });
  try {
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Checking the API key...'),
        cancellable: true,
      },
      (_progress, token) => withAbortSignal(token, (signal) => probe.listTasks({ limit: 1 }, { signal })),
    );
    return 'ok';
  } catch (err) {
    // A server without the (assumed) task list still authenticated us before answering 404/405.
    if (isApiError(err, 'not_supported')) {
      return 'ok';
    }
    if (isApiError(err, 'aborted')) {
      return 'cancel';
    }
    if (isApiError(err, 'authentication') || isApiError(err, 'permission')) {
      const again = vscode.l10n.t('Try Again');
      const message = vscode.l10n.t(
        'The server at {0} rejected this API key. Check that it belongs to this workspace.',
        baseUrl,
      );
      if (!interactive) {
        void notify.error(message);
        return 'cancel';
      }
      return (await notify.error(message, again)) === again ? 'retry' : 'cancel';
    }
    if (!interactive) {
      throw err;
    }
    const keep = vscode.l10n.t('Save Anyway');
    const settings = vscode.l10n.t('Open Settings');
    const choice = await notify.warn(
      vscode.l10n.t('The key could not be checked: {0}', describeErrorForUser(err)),
      keep,
      settings,
    );
    if (choice === settings) {
      void vscode.commands.executeCommand(Commands.openSettings, Settings.baseUrl);
    }
    return choice === keep ? 'ok' : 'cancel';
  } finally {
    void probe.dispose();
  }
}

async function signOut(deps: CommandDeps): Promise<void> {
  const baseUrl = deps.service.serviceUrl;
  await deps.credentials.delete(baseUrl);
  await deps.service.update();
  if (deps.service.isSignedIn) {
    // Still signed in: the key comes from the environment, which we cannot forget.
    void notify.info(
      vscode.l10n.t(
        'The stored key was removed, but the AGENT_RUNTIME_API_KEY environment variable still provides one.',
      ),
    );
    return;
  }
  deps.log.info(`Signed out of ${baseUrl}`);
  void notify.info(vscode.l10n.t('Signed out of Agent Runtime.'));
}
