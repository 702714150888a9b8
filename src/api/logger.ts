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
