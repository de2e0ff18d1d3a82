// @ts-check
// The bytes the beyond scenarios send and serve: deterministic text (base64 of a hash chain), so every run, both
// adapters and the checks agree on them, and a string carries them unchanged through every driver. A form that holds
// a file that is not text (an upload route's image) is a string of bytes, one character each (bodyBytes).
import { createHash } from 'node:crypto';
import { mkdir, rename, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const BLOCK_BYTES = 64 * 1024;
const BOUNDARY = 'nest-adapter-bench-boundary';
export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
/** Served files carry this modification time, so a conditional request can name it without asking first. */
export const FILES_MTIME = new Date('2026-01-01T00:00:00Z');

/** @type {Map<string, string>} */
const blocks = new Map();

/**
 * `bytes` characters of text, the same for the same seed.
 * @param {number} bytes @param {string} seed
 */
export function payloadText(bytes, seed) {
  let block = blocks.get(seed);
  if (block === undefined) {
    const hashes = [];
    let state = createHash('sha256').update(seed).digest();
    for (let length = 0; length < BLOCK_BYTES; length += 44) {
      state = createHash('sha256').update(state).digest();
      hashes.push(state.toString('base64'));
    }
    block = hashes.join('').slice(0, BLOCK_BYTES);
    blocks.set(seed, block);
  }
  return block.repeat(Math.ceil(bytes / BLOCK_BYTES)).slice(0, bytes);
}

/** @param {string} text */
export function sha256(text) {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * A JSON object of exactly `bytes` bytes: records of a few fields, padded in the last one.
 * @param {number} bytes
 */
export function jsonBody(bytes) {
  const records = [];
  let length = '{"records":[]}'.length;
  for (let id = 1; ; id++) {
    const record = JSON.stringify({ id, name: `record ${id}`, note: payloadText(48, `note ${id % 16}`) });
    if (length + record.length + 1 > bytes) break;
    records.push(record);
    length += record.length + (records.length > 1 ? 1 : 0);
  }
  const head = `{"records":[${records.join(',')}],"pad":"`;
  return `${head}${payloadText(bytes - head.length - 2, 'pad')}"}`;
}

/**
 * A multipart/form-data body with one file in the field `file`.
 * @param {string} filename @param {string} content
 */
export function multipartBody(filename, content) {
  return multipartForm({ files: [{ field: 'file', filename, type: 'application/octet-stream', content }] });
}

/**
 * @typedef {{ fields?: [string, string][], files: { field: string, filename: string, type: string,
 *   content: string | Buffer }[] }} Form
 */

/**
 * A multipart/form-data body (MULTIPART_TYPE): its text fields, then its files.
 * @param {{ fields?: [string, string][], files: { field: string, filename: string, type: string, content: string }[] }}
 *   form
 */
export function multipartForm(form) {
  return `${formParts(form)
    .map(({ head, content }) => `--${BOUNDARY}\r\n${head}\r\n\r\n${content}\r\n`)
    .join('')}--${BOUNDARY}--\r\n`;
}

/**
 * The same form for files that are not text (an image): a string of bytes, one character each (latin1), its text
 * fields as UTF-8. Sent with MULTIPART_TYPE, every sender sends it byte for byte (bodyBytes).
 * @param {Form} form
 */
export function multipartFormOfBytes(form) {
  return Buffer.concat([
    ...formParts(form).flatMap(({ head, content }) => [
      Buffer.from(`--${BOUNDARY}\r\n${head}\r\n\r\n`),
      typeof content === 'string' ? Buffer.from(content) : content,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${BOUNDARY}--\r\n`),
  ]).toString('latin1');
}

/**
 * What a request body is sent as: a form the bench built (MULTIPART_TYPE) is a string of bytes, one character each,
 * which keeps a file that is not text through every sender and the placeholders unique values fill; any other body
 * is text, sent as UTF-8. No body, none.
 * @template {string | undefined} B
 * @param {B} body @param {Record<string, string>} headers
 * @returns {B extends string ? Buffer : undefined}
 */
export function bodyBytes(body, headers) {
  return /** @type {B extends string ? Buffer : undefined} */ (
    body === undefined ? undefined : Buffer.from(body, isFormOfBytes(headers) ? 'latin1' : 'utf8')
  );
}

/** Whether a request's body is a string of bytes (bodyBytes). @param {Record<string, string>} headers */
export function isFormOfBytes(headers) {
  return Object.entries(headers).some(
    ([name, value]) => name.toLowerCase() === 'content-type' && value === MULTIPART_TYPE,
  );
}

/** @template {Form} F @param {F} form @returns {{ head: string, content: F['files'][number]['content'] }[]} */
function formParts({ fields = [], files }) {
  return [
    ...fields.map(([name, value]) => ({ head: `Content-Disposition: form-data; name="${name}"`, content: value })),
    ...files.map(({ field, filename, type, content }) => ({
      head: `Content-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}`,
      content,
    })),
  ];
}

/**
 * Write the served files into `dir` (once: a file of the right size is kept), each with FILES_MTIME.
 * @param {string} dir @param {Record<string, number>} sizes file name → bytes
 */
export async function writeServedFiles(dir, sizes) {
  await mkdir(dir, { recursive: true });
  for (const [name, bytes] of Object.entries(sizes)) {
    const path = join(dir, name);
    const found = await stat(path).catch(() => null);
    if (found?.size !== bytes || found.mtimeMs !== FILES_MTIME.getTime()) {
      // another run may be reading it: write beside it and rename over it
      const temporary = `${path}.${process.pid}`;
      await writeFile(temporary, payloadText(bytes, name));
      await utimes(temporary, FILES_MTIME, FILES_MTIME);
      await rename(temporary, path);
    }
  }
}
