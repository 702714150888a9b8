// The URI handler: `<scheme>://agent-runtime.agent-runtime/run/<run_id>#<sequence>` opens the
// run's panel and shows that event. Any other link opens nothing and says why.
import * as vscode from 'vscode';
import { describeError } from '../api/errorSentences';
import { describeErrorForUser } from '../commandSupport/errorText';
import { notify } from '../common/notify';
import type { Translate } from '../common/translate';
import { problemText } from './linkText';
import { checkRunLink, type RunLinkTarget } from './runLink';

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

export function registerRunLinkHandler(
  open: (target: RunLinkTarget) => void,
  log: vscode.LogOutputChannel,
): vscode.Disposable {
  return vscode.window.registerUriHandler({
    handleUri(uri: vscode.Uri): void {
      const result = checkRunLink({ authority: uri.authority, path: uri.path, fragment: uri.fragment });
      if (!result.ok) {
        // The link itself stays out of the log: it is outside text of any length.
        log.warn(`Run link refused (${result.problem})`);
        void notify.error(t('This link cannot be opened: {0}', problemText(result.problem, t)));
        return;
      }
      log.info(
        `Run link: ${result.target.runId}${result.target.sequence === undefined ? '' : ` event ${result.target.sequence}`}`,
      );
      try {
        open(result.target);
      } catch (err) {
        // Thrown here it would end inside VS Code and the user would see nothing (a broken install: runpanel.js missing).
        log.error(`Run link: cannot open the run panel: ${describeError(err)}`);
        void notify.error(describeErrorForUser(err));
      }
    },
  });
}
