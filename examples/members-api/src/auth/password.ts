import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const derive = promisify(scrypt) as (password: string, salt: Buffer, length: number) => Promise<Buffer>;
const KEY_LENGTH = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return `${salt.toString('base64')}:${(await derive(password, salt, KEY_LENGTH)).toString('base64')}`;
}

export async function passwordMatches(password: string, hash: string): Promise<boolean> {
  const [salt = '', key = ''] = hash.split(':');
  const derived = await derive(password, Buffer.from(salt, 'base64'), KEY_LENGTH);
  const expected = Buffer.from(key, 'base64');
  return derived.length === expected.length && timingSafeEqual(derived, expected);
}
