// The API layer's own wordings of an error's message (ApiError.detail: an id and its arguments)
// said through a Translate: in English they are the error's message, in the editor the user's
// language. `t` is typed Translate so scripts/l10n-strings.js extracts every wording.
import type { Translate } from '../common/translate';

/**
 * The API layer's own wording of an error's message, as an id and its arguments: the message is
 * English (for logs and tests); the editor says the same in the user's language from these.
 */
export type ApiDetail =
  | { id: 'cancelled' | 'missingApiKey' | 'apiKeyUnavailable'; args: [] }
  | {
      id:
        | 'connectTimeout'
        | 'answerTimeout'
        | 'bodyTimeout'
        | 'refused'
        | 'dnsFailed'
        | 'closedEarly'
        | 'lengthMismatch'
        | 'tlsVersion'
        | 'browserUnreachable';
      args: [where: string];
    }
  | { id: 'certNotValidNow' | 'certWrongHost' | 'certUntrusted'; args: [where: string, code: string] }
  | { id: 'listTimeout'; args: [seconds: string] }
  | { id: 'requestFailed'; args: [where: string, reason: string] }
  | { id: 'serviceAnswered'; args: [status: string, method: string, path: string] }
  | { id: 'serviceAnsweredText'; args: [status: string, text: string] }
  | { id: 'notOffered'; args: [method: string, path: string, status: string] };

export type ApiDetailId = ApiDetail['id'];

/** The wording of `detail` through `t`; a switch over every id, so a new one does not compile until it is here. */
export function apiDetailText(t: Translate, detail: ApiDetail): string {
  switch (detail.id) {
    case 'cancelled':
      return t('The request was cancelled');
    case 'missingApiKey':
      return t('No API key is set');
    case 'apiKeyUnavailable':
      return t('The API key could not be read');
    case 'connectTimeout':
      return t('Connecting to {0} timed out', ...detail.args);
    case 'answerTimeout':
      return t('{0} did not answer in time', ...detail.args);
    case 'bodyTimeout':
      return t('{0} stopped sending in the middle of a response', ...detail.args);
    case 'refused':
      return t('Could not connect to {0} (connection refused)', ...detail.args);
    case 'dnsFailed':
      return t('Could not find the host of {0} (DNS lookup failed)', ...detail.args);
    case 'closedEarly':
      return t('The connection to {0} was closed before the answer was complete', ...detail.args);
    case 'lengthMismatch':
      return t('The transfer with {0} ended early (length mismatch)', ...detail.args);
    case 'tlsVersion':
      return t('Secure connection to {0} failed: the server does not offer TLS 1.3, which is required', ...detail.args);
    case 'certNotValidNow':
      return t(
        "The certificate of {0} is not valid now ({1}); check this computer's clock, or ask the service's administrator to renew it",
        ...detail.args,
      );
    case 'certWrongHost':
      return t(
        'The certificate of {0} is for another host name ({1}); use the address the certificate names in agentRuntime.baseUrl',
        ...detail.args,
      );
    case 'certUntrusted':
      return t(
        'The certificate of {0} is not trusted ({1}; issued by a private CA or a TLS-inspecting proxy?); add that CA to the file NODE_EXTRA_CA_CERTS names, or to the system store with http.systemCertificates on',
        ...detail.args,
      );
    case 'listTimeout':
      return t("The service's list did not end within {0} s", ...detail.args);
    case 'requestFailed':
      return t('Request to {0} failed: {1}', ...detail.args);
    case 'browserUnreachable':
      return t(
        'The browser could not reach {0}: it is offline, blocked, or does not allow requests from this page (CORS); check agentRuntime.baseUrl and that the service allows this origin',
        ...detail.args,
      );
    case 'serviceAnswered':
      return t('The service answered {0} to {1} {2}', ...detail.args);
    case 'serviceAnsweredText':
      return t('The service answered {0}: "{1}"', ...detail.args);
    case 'notOffered':
      return t('This server does not offer {0} {1} (it answered {2})', ...detail.args);
  }
}
