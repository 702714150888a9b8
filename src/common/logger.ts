// The logging interface the API layer writes to. The extension passes its LogOutputChannel
// (which has these methods); tests pass an array-backed logger. No vscode import here.
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

// C0 and C1 controls, line and paragraph separators, and bidirectional overrides: server text
// holding them could end a log line and forge the next one, or reorder what a reader sees.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` on one visible line: control characters written as \n, \r, \t or \uXXXX. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
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
