import { createHash } from 'node:crypto';

/** What a route answers about bytes it received: the client compares the digest with what it sent. */
export interface Received {
  bytes: number;
  sha256: string;
}

export function describeBytes(bytes: Buffer | string): Received {
  return {
    bytes: Buffer.byteLength(bytes),
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}
