/**
 * The MCP stdio transport of `knowledge-kit mcp`, in place of the SDK's `StdioServerTransport`
 * (`@modelcontextprotocol/server` 2.4.0), whose behaviour under load stopped the server:
 *
 * - Each `send` whose `stdout.write` returns false adds one `drain` and one `error` listener, and each
 *   removes both with `off`, a scan of the listener array: 60,000 pipelined requests leave 60,000
 *   listeners, the next `drain` runs them all and each scans the rest, quadratic work that held the
 *   CPU for tens of seconds and made SIGINT wait for it.
 * - Its read buffer refuses a line over 10 MB by throwing, and the transport then closes itself: the
 *   server exits 0 without a word.
 *
 * Here lines are read with a limit of their own (a longer line is skipped to its end and answered with
 * a JSON-RPC error, and serving goes on), at most `maxInFlight` requests are handed to the server at a
 * time, a request counting as in flight until its response is flushed to stdout (so queued output is
 * bounded too), the others wait in a queue, and stdin is paused while `16 × maxInFlight` messages wait
 * (back-pressure to the client); `send` never adds a listener. One case stays open: a client that
 * has that many messages waiting and cancels every request in flight must wait for their answers, as
 * its cancellations are not read yet.
 */
import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  parseJSONRPCMessage,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';

/** The longest line read, in bytes (the SDK's own default buffer). */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;
/** Requests handed to the server at once, before stdin is paused. */
export const MAX_IN_FLIGHT = 64;

/** The streams the transport uses: `process.stdin` and `process.stdout`, or test doubles. */
export interface StdioStreams {
  readonly stdin: NodeJS.ReadableStream & { pause(): unknown; resume(): unknown };
  readonly stdout: { write(text: string, callback: (error?: Error | null) => void): unknown };
  /** Where refusals are told, one line each. */
  readonly stderr: { write(text: string): unknown };
}

/** A request's ID as a key of one set (`1` and `"1"` are different requests). */
const keyOf = (id: unknown): string => `${typeof id}:${String(id)}`;

/** The `requestId` of a `notifications/cancelled`. */
const requestIdOf = (message: JSONRPCMessage): unknown =>
  ((message as { params?: unknown }).params as { requestId?: unknown } | undefined)?.requestId;

/** An MCP transport over newline-delimited JSON-RPC on stdio, with bounded lines and bounded work. */
export class BoundedStdioTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  private readonly parts: Buffer[] = [];
  private partBytes = 0;
  /** Bytes of the line being skipped, or -1 when not skipping one. */
  private skipped = -1;
  private readonly queue: JSONRPCMessage[] = [];
  private queueHead = 0;
  private readonly pending = new Set<string>();
  private inFlight = 0;
  private paused = false;
  private closed = false;

  constructor(
    private readonly streams: StdioStreams,
    private readonly limits: { readonly maxLineBytes: number; readonly maxInFlight: number } = {
      maxLineBytes: MAX_LINE_BYTES,
      maxInFlight: MAX_IN_FLIGHT,
    },
  ) {}

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let from = 0;
    while (from <= bytes.length) {
      const end = bytes.indexOf(10, from);
      const piece = bytes.subarray(from, end < 0 ? bytes.length : end);
      if (this.skipped >= 0) this.skipped += piece.length;
      else if (this.partBytes + piece.length > this.limits.maxLineBytes) {
        this.skipped = this.partBytes + piece.length;
        this.parts.length = 0;
        this.partBytes = 0;
      } else if (piece.length > 0) {
        this.parts.push(piece);
        this.partBytes += piece.length;
      }
      if (end < 0) break;
      this.endLine();
      from = end + 1;
    }
    this.pump();
  };

  private readonly onEnd = (): void => void this.close();
  private readonly onError = (error: Error): void => this.onerror?.(error);

  /** A line break was read: the line read so far is parsed and queued, or the skipped one refused. */
  private endLine(): void {
    if (this.skipped >= 0) {
      const bytes = this.skipped;
      this.skipped = -1;
      this.refuse(
        -32600,
        `a message line of ${bytes} bytes is over the limit of ${this.limits.maxLineBytes} bytes; it was skipped unread. Send smaller messages.`,
      );
      return;
    }
    const line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    this.parts.length = 0;
    this.partBytes = 0;
    const message = this.parse(line.toString('utf8').replace(/\r$/, ''));
    if (message === undefined) return;
    // The cancellation of a request the server has goes straight in: queued behind requests that wait
    // for a place, it could never free the place its request holds (a cancelled request is never
    // answered).
    if (
      isJSONRPCNotification(message) &&
      message.method === 'notifications/cancelled' &&
      this.pending.has(keyOf(requestIdOf(message)))
    ) {
      this.deliver(message);
      return;
    }
    this.queue.push(message);
  }

  /** Answers a message that cannot be handled (no ID can be read from it) and says so on stderr. */
  private refuse(code: number, message: string): void {
    this.streams.stderr.write(`knowledge-kit mcp: ${message}\n`);
    void this.write({
      jsonrpc: '2.0',
      id: null,
      error: { code, message },
    } as unknown as JSONRPCMessage).catch(() => undefined);
  }

  /** Hands queued messages to the server while fewer than `maxInFlight` requests are unanswered. */
  private pump(): void {
    while (!this.closed && this.queueHead < this.queue.length) {
      const message = this.queue[this.queueHead]!;
      if (isJSONRPCRequest(message) && this.inFlight >= this.limits.maxInFlight) break;
      this.queue[this.queueHead++] = undefined as unknown as JSONRPCMessage;
      this.deliver(message);
    }
    if (this.queueHead === this.queue.length) {
      this.queue.length = 0;
      this.queueHead = 0;
    }
    // Back-pressure: read no more while `16 × maxInFlight` messages wait. Reading goes on while
    // fewer wait, so that a cancellation can still arrive for a request the server holds.
    const waiting = this.queue.length - this.queueHead;
    const most = this.limits.maxInFlight * 16;
    if (waiting >= most && !this.paused) {
      this.paused = true;
      this.streams.stdin.pause();
    } else if (waiting < most / 2 && this.paused && !this.closed) {
      this.paused = false;
      this.streams.stdin.resume();
    }
  }

  /** One line as a JSON-RPC message, or `undefined` after answering a line that is not one. */
  private parse(text: string): JSONRPCMessage | undefined {
    if (text.trim() === '') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.refuse(-32700, 'a message line is not JSON; it was skipped.');
      return undefined;
    }
    try {
      return parseJSONRPCMessage(value);
    } catch {
      this.refuse(-32600, 'a message line is not a JSON-RPC 2.0 message; it was skipped.');
      return undefined;
    }
  }

  /** Hands one message to the server, counting a request in flight until its answer is flushed. */
  private deliver(message: JSONRPCMessage): void {
    if (isJSONRPCRequest(message)) {
      this.pending.add(keyOf(message.id));
      this.inFlight++;
    } else if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      // A cancelled request is never answered: it stops counting now.
      if (this.pending.delete(keyOf(requestIdOf(message)))) this.inFlight--;
    }
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  /** Writes one message; the promise settles when it is flushed. */
  private write(message: JSONRPCMessage, answered?: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.streams.stdout.write(`${JSON.stringify(message)}\n`, (error) => {
        if (answered !== undefined) {
          this.inFlight--;
          this.pump();
        }
        if (error) reject(error);
        else resolve();
      });
    });
  }

  /** Starts reading stdin. */
  async start(): Promise<void> {
    this.streams.stdin.on('data', this.onData);
    this.streams.stdin.on('end', this.onEnd);
    this.streams.stdin.on('close', this.onEnd);
    this.streams.stdin.on('error', this.onError);
  }

  /** Sends one message; a response ends its request's time in flight once it is flushed. */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the stdio transport is closed'));
    const id = (message as { id?: unknown }).id;
    const response =
      !('method' in message) && (typeof id === 'string' || typeof id === 'number')
        ? keyOf(id)
        : undefined;
    const answered = response !== undefined && this.pending.delete(response) ? response : undefined;
    return this.write(message, answered);
  }

  /** Stops reading; queued lines are dropped, as the SDK's transport drops them. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.streams.stdin.off('data', this.onData);
    this.streams.stdin.off('end', this.onEnd);
    this.streams.stdin.off('close', this.onEnd);
    this.streams.stdin.off('error', this.onError);
    this.streams.stdin.pause();
    this.queue.length = 0;
    this.queueHead = 0;
    this.onclose?.();
  }
}
