import { createHmac } from 'node:crypto';

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Builds a JWT by hand, independent of the library the app uses, so that the
 * tests can make tokens the app must refuse: other algorithms, no signature,
 * wrong key, past expiry.
 */
export function forgeJwt(header: Record<string, unknown>, payload: Record<string, unknown>, secret: string): string {
  const signingInput = `${base64url(header)}.${base64url(payload)}`;
  const hash = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' }[String(header.alg)];
  const signature = hash ? createHmac(hash, secret).update(signingInput).digest('base64url') : '';
  return `${signingInput}.${signature}`;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export function decodeJwtPart(token: string, index: 0 | 1): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[index], 'base64url').toString());
}
