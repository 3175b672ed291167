import { Socket } from 'node:net';
import type { Readable } from 'node:stream';

/**
 * The ArrayBuffers of request chunks that nothing else holds, which the staging store frees once
 * their bytes are written (staging.ts). A chunk of a request read off a real connection is the copy
 * node's HTTP parser made for it alone (its ArrayBuffer is the chunk, whole); anything else (an
 * injected request's body, a slice of a bigger buffer) is the sender's and is never touched.
 */
const releasable = new WeakSet<ArrayBufferLike>();

/** Whether the staging store may free this chunk's memory once written (marked by `requestBody`). */
export const isReleasable = (chunk: Uint8Array): boolean => releasable.has(chunk.buffer);

/**
 * Frees a written chunk's memory now, rather than at V8's next full collection: detaches its
 * ArrayBuffer (transfer to length 0), which releases the backing store and V8's count of external
 * memory at once. Only for a chunk `isReleasable` names; the chunk reads as empty afterwards.
 */
export function release(chunk: Uint8Array): void {
  const buffer = chunk.buffer;
  if (!releasable.delete(buffer)) return;
  (buffer as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
}

/**
 * A request's body as a web stream for tus, chunk for chunk: each chunk read from the request only
 * when tus asks for the next (so a slow disk slows the sender, never fills memory) and handed on as
 * it arrived. `Readable.toWeb` copies every chunk into a new Uint8Array (to detach it from Buffer's
 * pool, which request bodies do not use): twice the buffers outside the heap for every byte
 * uploaded, and V8 answers that growth with full collections of the app's heap. Receiving 100 MB
 * into a file with a 45 MB heap (Node 26, bench S10's investigation): 1.18 s of CPU and 17 full
 * collections through `Readable.toWeb`, 0.80 s and 9 through this, 0.64 s and 7 piping the request
 * straight to the file. The chunks of a real connection are marked releasable: the staging store
 * frees each once written, so the remaining full collections go too (see staging.ts).
 */
export function requestBody(body: Readable & { socket?: unknown }): ReadableStream<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const ownChunks = body.socket instanceof Socket;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) return controller.close();
        const chunk = next.value;
        if (ownChunks && chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength)
          releasable.add(chunk.buffer);
        controller.enqueue(chunk);
      },
      async cancel() {
        // Ends the iteration, which destroys the request (as Readable.toWeb's cancel did).
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
