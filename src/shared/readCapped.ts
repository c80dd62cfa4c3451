/**
 * A byte stream read whole when it holds at most a cap: what a fetched bundle file and an MCP batch's
 * answer are both read with. Web streams only, so it runs wherever the core does.
 */

/**
 * The chunks of `body` in order, or `undefined` as soon as they pass `maxBytes`: reading stops at
 * the first chunk over the cap and the stream is cancelled, so nothing past it is held.
 *
 * @param body - the stream to read.
 * @param maxBytes - the most bytes it may hold.
 * @returns its chunks, or `undefined` when it holds more.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array[] | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
}
