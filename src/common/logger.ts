// The logging interface the API layer writes to. The extension passes its LogOutputChannel
// (which has these methods); tests pass an array-backed logger. No vscode import here.
import { visibleText } from '../common/visibleText';

export interface Logger {
  trace?(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A logger that drops everything, for callers that pass none. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/**
 * `text` on one visible line: server text holding line breaks could end a log line and forge the
 * next one, and bidi or hidden characters reorder or hide what a reader sees. The one rule of
 * every surface (visibleText): \n, \r, \t, \uXXXX or \u{XXXXX}.
 */
export function escapeControls(text: string): string {
  return visibleText(text);
}

/** A logger whose every line goes through escapeControls: the API layer logs server text through it. */
export function escapingLogger(logger: Logger): Logger {
  const trace = logger.trace?.bind(logger);
  return {
    ...(trace ? { trace: (m: string) => trace(escapeControls(m)) } : {}),
    debug: (m) => logger.debug(escapeControls(m)),
    info: (m) => logger.info(escapeControls(m)),
    warn: (m) => logger.warn(escapeControls(m)),
    error: (m) => logger.error(escapeControls(m)),
  };
}
