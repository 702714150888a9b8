// Serves one SSE subscriber from a run's event log: resume, live tail, keep-alives, backpressure.
import type { ServerResponse } from 'node:http';
import type { RunEventLog } from './eventLog';

export interface EventStreamOptions {
  after: number;
  keepAliveMs: number;
  lineEnding: '\n' | '\r\n';
  /** Write the stream in pieces of this many bytes (parsers must cope with split lines). */
  chunkBytes?: number;
  retryMs?: number;
  /** Destroy the connection after this many events (fault). */
  dropAfterEvents?: number;
}

/** Roughly how much text one write carries: big enough for 1M events to stream in seconds. */
const BATCH_CHARS = 64 * 1024;

export async function serveEventStream(
  res: ServerResponse,
  log: RunEventLog,
  options: EventStreamOptions,
): Promise<void> {
  const nl = options.lineEnding;
  let closed = false;
  const closedPromise = new Promise<void>((resolve) =>
    res.once('close', () => {
      closed = true;
      resolve();
    }),
  );

  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();

  // One writer at a time: keep-alives and events never interleave inside a message.
  let writing: Promise<void> = Promise.resolve();
  const write = (text: string): Promise<void> => {
    writing = writing.then(() => writeRespectingBackpressure(res, text, options.chunkBytes, () => closed));
    return writing;
  };

  const keepAlive = setTimeout(function beat() {
    if (closed) {
      return;
    }
    void write(`: keep-alive${nl}${nl}`);
    keepAlive.refresh();
  }, options.keepAliveMs);
  keepAlive.unref();

  try {
    if (options.retryMs !== undefined) {
      await write(`retry: ${options.retryMs}${nl}${nl}`);
    }
    let position = log.positionAfter(options.after);
    if (log.ended && position > log.size && log.size > 0) {
      // A client whose `after` is already at the end still gets the terminal event, then the
      // close (docs/PROTOCOL.md, The stream), so it learns the run is over instead of reconnecting for ever.
      const last = log.entryAt(log.size);
      if (last.kind !== 'raw') {
        await write(`id: ${last.sequence}${nl}event: ${last.event}${nl}data: ${last.dataJson}${nl}${nl}`);
      }
      res.end();
      return;
    }
    let eventsSent = 0;
    const limit = options.dropAfterEvents;
    while (!closed) {
      let batch = '';
      while (position <= log.size && batch.length < BATCH_CHARS && (limit === undefined || eventsSent < limit)) {
        const entry = log.entryAt(position++);
        if (entry.kind === 'raw') {
          batch += entry.text;
          continue;
        }
        if (entry.sequence <= options.after) {
          continue;
        }
        batch += `id: ${entry.sequence}${nl}event: ${entry.event}${nl}data: ${entry.dataJson}${nl}${nl}`;
        eventsSent++;
      }
      if (batch !== '') {
        await write(batch);
        keepAlive.refresh();
      }
      if (closed) {
        return;
      }
      // The terminal event went out: close cleanly even if the drop budget is spent too.
      if (log.ended && position > log.size) {
        res.end();
        return;
      }
      if (limit !== undefined && eventsSent >= limit) {
        cutConnection(res);
        return;
      }
      if (position > log.size) {
        await Promise.race([log.changed(), closedPromise]);
      }
    }
  } finally {
    clearTimeout(keepAlive);
  }
}

async function writeRespectingBackpressure(
  res: ServerResponse,
  text: string,
  chunkBytes: number | undefined,
  isClosed: () => boolean,
): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  const step = chunkBytes && chunkBytes > 0 ? chunkBytes : bytes.length;
  for (let offset = 0; offset < bytes.length; offset += step) {
    if (isClosed()) {
      return;
    }
    const flushed = res.write(bytes.subarray(offset, offset + step));
    if (!flushed) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    } else if (step < bytes.length) {
      // Let each piece leave as its own TCP segment so clients really see split messages.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}

/**
 * Fault: the connection dies mid-stream. Ending the socket (not destroying it) lets the bytes
 * already written leave first; the client then sees EOF inside the chunked body, i.e. a cut.
 */
function cutConnection(res: ServerResponse): void {
  const socket = res.socket;
  if (!socket) {
    res.destroy();
    return;
  }
  socket.end();
  setTimeout(() => socket.destroy(), 1000).unref();
}
