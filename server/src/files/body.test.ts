import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { requestBody } from './body.js';

/** The upload body handed to tus (routes.ts): the request's own chunks, read only when asked. */
describe('requestBody', () => {
  it('hands on the very chunks the request read, in order, not copies', async () => {
    const chunks = [Buffer.from('one '), Buffer.from('two '), Buffer.from('three')];
    const got: Uint8Array[] = [];
    for await (const chunk of requestBody(Readable.from(chunks))) got.push(chunk);
    expect(got).toHaveLength(3);
    got.forEach((chunk, i) => expect(chunk).toBe(chunks[i]));
  });

  it('reads nothing from the request until the body is read, then one chunk a read', async () => {
    let produced = 0;
    const source = new Readable({
      highWaterMark: 0,
      read() {
        produced++;
        this.push(produced <= 3 ? Buffer.alloc(1024, produced) : null);
      },
    });
    const reader = requestBody(source).getReader();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(produced).toBe(0);
    const first = await reader.read();
    expect(first.value?.[0]).toBe(1);
    expect(produced).toBeLessThanOrEqual(2);
  });

  it('destroys the request when tus gives up on the body', async () => {
    const source = new Readable({ read() {} });
    source.push(Buffer.from('some'));
    const reader = requestBody(source).getReader();
    await reader.read();
    await reader.cancel();
    expect(source.destroyed).toBe(true);
  });
});
