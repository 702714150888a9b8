// Bytes of a server-sent event stream in, messages out: a streaming UTF-8 decoder in front of
// eventsource-parser, so that a chunk may end anywhere (inside a line, a CRLF pair or a
// multi-byte character). Reset between connections: a new stream must not inherit a half line.
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';
import { asciiText } from './asciiText';

export interface SseReaderCallbacks {
  onMessage(message: EventSourceMessage): void;
  /** The server's `retry:` field, in ms. */
  onRetry(ms: number): void;
  /** A single message (or line) grew past the limit; the reader stops until reset(). */
  onTooLarge(limit: number): void;
}

/** Largest message we buffer, in characters; a bigger one is a broken or hostile stream. */
export const MAX_SSE_MESSAGE_CHARS = 16 * 1024 * 1024;

export class SseReader {
  private decoder = new TextDecoder('utf-8');
  private readonly parser: EventSourceParser;
  private stopped = false;
  private endsWithCR = false;
  // The decoder holds no part of a character: the next chunk may skip it.
  private decoderEmpty = true;

  constructor(callbacks: SseReaderCallbacks, maxMessageChars = MAX_SSE_MESSAGE_CHARS) {
    this.parser = createParser({
      onEvent: (message) => callbacks.onMessage(message),
      onRetry: (ms) => callbacks.onRetry(ms),
      // Comments are keep-alives; the bytes they bring are what the idle watchdog counts.
      onComment: () => undefined,
      onError: (error) => {
        if (error.type !== 'max-buffer-size-exceeded') {
          return;
        } // unknown fields are ignored, as the SSE spec says
        this.stopped = true;
        callbacks.onTooLarge(maxMessageChars);
      },
      maxBufferSize: maxMessageChars,
    });
  }

  /** Feeds the next chunk of bytes; callbacks fire synchronously for each complete message. */
  push(bytes: Uint8Array): void {
    if (this.stopped) {
      return;
    }
    // Nearly every chunk of a run's log is ASCII, where latin1 gives the same text at a fraction
    // of UTF-8 decoding's cost (a tenth of the subscription's time at a million events).
    const ascii = this.decoderEmpty ? asciiText(bytes) : undefined;
    if (ascii !== undefined) {
      this.feed(ascii);
      return;
    }
    this.feed(this.decoder.decode(bytes, { stream: true }));
    // An ASCII byte ends any character the decoder held (it emits U+FFFD for a cut one).
    if (bytes.length > 0) {
      this.decoderEmpty = bytes[bytes.length - 1] < 0x80;
    }
  }

  /**
   * The stream ended. A CR as the very last byte is a whole line ending (the parser waits to
   * see whether an LF follows); an unfinished message is dropped, as the SSE spec says.
   */
  end(): void {
    if (this.stopped) {
      return;
    }
    this.feed(this.decoder.decode());
    this.decoderEmpty = true;
    if (this.endsWithCR) {
      this.feed('\n');
    }
  }

  private feed(text: string): void {
    if (text === '') {
      return;
    }
    this.endsWithCR = text.charCodeAt(text.length - 1) === 13;
    this.parser.feed(text);
  }

  /** Forgets any partial line, message or character: the next bytes start a new stream. */
  reset(): void {
    this.parser.reset();
    this.decoder = new TextDecoder('utf-8');
    this.stopped = false;
    this.endsWithCR = false;
    this.decoderEmpty = true;
  }
}
