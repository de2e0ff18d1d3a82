// @ts-check
// A route whose handler has a file interceptor is sent a file, as a browser's form sends it: the fields its
// interceptor reads (scan-file.js), one file in each (two where it takes several), the body's fields beside them, and
// a small generated file of a type the app's own filters accept where the scan found what they test (a fileFilter's
// pattern, a FileTypeValidator's type). The file is a valid one of its kind (sample-files.js), so a validator that
// reads its magic number or a library that decodes it takes it; the form is a string of bytes (payloads.js). What Fastify answered to
// it is said from those answers.
import { MULTIPART_TYPE, multipartFormOfBytes } from '../../model/payloads.js';
import { GRAPHQL_UPLOAD_FIX, fileInterceptorFix } from '../scan/fastify-differences.js';
import { answered } from '../check/probe-statements.js';
import { gif, jpeg, pdf, png, text, webp } from './sample-files.js';

const UPLOAD_BYTES = 4 * 1024;
/** What parses a GraphQL multipart request, where the scan found no graphqlUploadExpress. */
const GRAPHQL_MULTIPART = 'the GraphQL multipart request';
/** Where an interceptor takes several files (FilesInterceptor), this many are sent, within its maxCount. */
const SEVERAL_FILES = 2;

/**
 * A kind of file the bench can send, best first: the first one the app's patterns accept is sent.
 * @typedef {{ extension: string, type: string, name: string, content: (bytes: number, seed: string) => Buffer }}
 *   FileKind content: a valid file of the kind, of about `bytes` bytes
 */
/** @type {FileKind[]} */
export const FILE_KINDS = [
  { extension: 'gif', type: 'image/gif', name: 'photo', content: gif },
  { extension: 'png', type: 'image/png', name: 'photo', content: png },
  { extension: 'jpg', type: 'image/jpeg', name: 'photo', content: jpeg },
  { extension: 'jpeg', type: 'image/jpeg', name: 'photo', content: jpeg },
  { extension: 'webp', type: 'image/webp', name: 'photo', content: webp },
  { extension: 'pdf', type: 'application/pdf', name: 'document', content: pdf },
  { extension: 'txt', type: 'text/plain', name: 'notes', content: text },
  { extension: 'csv', type: 'text/csv', name: 'data', content: text },
];

/**
 * @typedef {import('../../model/own-app-record.js').FileField} FileField
 * @typedef {import('../../model/own-app-record.js').FileTypePattern} FileTypePattern
 * @typedef {import('../../model/own-app-record.js').UploadSent} UploadSent
 */

/**
 * The routes whose handler has a file interceptor the scan could read, by handler, with the file each is sent.
 * @param {import('../scan/scan.js').ScanRecord} scan
 * @returns {Map<string, UploadSent>}
 */
export function uploadsByHandler(scan) {
  const patterns = scan.fileTypes ?? [];
  return new Map(
    scan.findings.flatMap((finding) => {
      if (!finding.handler || !finding.files) return [];
      const own = patterns.filter((p) => p.handler === finding.handler);
      const kind = fileKind(own.length ? own : patterns.filter((p) => p.handler === null));
      return [
        [
          finding.handler,
          {
            fields: finding.files,
            filename: `${kind.name}.${kind.extension}`,
            type: kind.type,
            bytes: UPLOAD_BYTES,
            interceptor: finding.rule,
            where: `${finding.file}:${finding.line}`,
          },
        ],
      ];
    }),
  );
}

/**
 * The first kind of file a pattern accepts (a fileFilter's regular expression on the name or the type, a validator's
 * type); with no pattern, or none that names a kind the bench sends, an image.
 * @param {FileTypePattern[]} patterns
 */
export function fileKind(patterns) {
  if (patterns.length === 0) return FILE_KINDS[0];
  return FILE_KINDS.find((kind) => patterns.some((p) => accepts(p, kind))) ?? FILE_KINDS[0];
}

/** @param {FileTypePattern} pattern @param {FileKind} kind */
function accepts({ pattern, regex }, kind) {
  const name = `${kind.name}.${kind.extension}`;
  if (regex) {
    const literal = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
    const tested = literal ? asRegExp(literal[1], literal[2]) : null;
    return tested !== null && (tested.test(name) || tested.test(kind.type));
  }
  // a fileFilter's string: a type (image/* for any image) or an extension
  const text = pattern.toLowerCase().replace(/^\./, '');
  if (text.endsWith('/*')) return kind.type.startsWith(text.slice(0, -1));
  return text.includes('/') ? text === kind.type : text === kind.extension;
}

/** @param {string} source @param {string} flags */
function asRegExp(source, flags) {
  try {
    return new RegExp(source, flags);
  } catch {
    return null;
  }
}

/**
 * The request body and content type of a route that takes a file: the body's plain fields as form fields (nested
 * ones as multer reads them back, `a[b]`, `list[0]`), then the file in each field its interceptor reads.
 * @param {UploadSent} upload @param {unknown} value the body derived for the route (or given by --body), if any
 */
export function uploadBody(upload, value) {
  const content = uploadedFile(upload);
  const fields = value !== null && typeof value === 'object' ? formFields(/** @type {object} */ (value)) : [];
  return {
    contentType: MULTIPART_TYPE,
    body: multipartFormOfBytes({
      fields,
      files: upload.fields.flatMap(({ field, count }) =>
        Array.from({ length: count }, () => ({ field, filename: upload.filename, type: upload.type, content })),
      ),
    }),
  };
}

/**
 * Where the app parses GraphQL's multipart requests on Express, as the scan found it (app.use(graphql-upload)).
 * @param {import('../scan/scan.js').ScanRecord} scan
 */
export function graphqlUploadParser(scan) {
  const found = scan.findings.find((f) => f.middleware === 'graphql-upload');
  return found ? { rule: found.rule, where: `${found.file}:${found.line}` } : null;
}

/**
 * What a GraphQL operation with `Upload` arguments is sent: a file for each, the first kind the bench sends (a GIF).
 * @param {string[]} variables where each file goes (withoutFiles) @param {{ rule: string, where: string } | null} parser
 *   what parses the multipart request on Express, where the scan found it (graphqlUploadExpress in app.use)
 * @returns {UploadSent & { variables: string[] }}
 */
export function graphqlUpload(variables, parser) {
  const kind = FILE_KINDS[0];
  return {
    fields: variables.map((_, i) => ({ field: String(i), count: 1 })),
    filename: `${kind.name}.${kind.extension}`,
    type: kind.type,
    bytes: UPLOAD_BYTES,
    interceptor: parser?.rule ?? GRAPHQL_MULTIPART,
    where: parser?.where ?? '',
    variables,
  };
}

/**
 * The GraphQL multipart request (the graphql-multipart-request-spec that graphql-upload and Apollo's clients follow):
 * an `operations` part with the operation, null where each file goes, a `map` part naming those places, then the
 * files, one part each.
 * @param {UploadSent & { variables: string[] }} upload
 * @param {{ query: string, operationName?: string, variables: Record<string, unknown> }} operation
 */
export function graphqlUploadBody(upload, operation) {
  const content = uploadedFile(upload);
  const map = Object.fromEntries(upload.variables.map((path, i) => [String(i), [path]]));
  return {
    contentType: MULTIPART_TYPE,
    body: multipartFormOfBytes({
      fields: [
        ['operations', JSON.stringify(operation)],
        ['map', JSON.stringify(map)],
      ],
      files: upload.fields.map(({ field }) => ({ field, filename: upload.filename, type: upload.type, content })),
    }),
  };
}

/** The bytes of the file an upload is sent: a valid file of its type. @param {UploadSent} upload */
export function uploadedFile(upload) {
  const kind = FILE_KINDS.find((k) => k.type === upload.type) ?? FILE_KINDS[0];
  return kind.content(upload.bytes, upload.filename);
}

/**
 * A body's fields as a form carries them, each a name and a text, nested objects and lists as Express's extended
 * parser and multer read them back: `a[b]=1`, `list[0]=x`.
 * @param {object} fields
 * @returns {[string, string][]}
 */
export function formFields(fields) {
  /** @type {[string, string][]} */
  const pairs = [];
  /** @param {string} key @param {unknown} value */
  const add = (key, value) => {
    if (value !== null && typeof value === 'object')
      for (const [inner, item] of Object.entries(value)) add(`${key}[${inner}]`, item);
    else pairs.push([key, String(value)]);
  };
  for (const [key, value] of Object.entries(fields)) add(key, value);
  return pairs;
}

/** How many files a FilesInterceptor('photos', maxCount) is sent. @param {number | null} maxCount */
export function severalFiles(maxCount) {
  return Math.max(1, Math.min(SEVERAL_FILES, maxCount ?? SEVERAL_FILES));
}

/** @param {UploadSent} upload `photo.gif (image/gif, 4 KiB) in profileImage` */
export function uploadWords(upload) {
  if (upload.variables) {
    const where = upload.variables.map((path) => `$${path.slice('variables.'.length)}`).join(', ');
    return `${upload.filename} (${upload.type}, ${upload.bytes / 1024} KiB) as a GraphQL multipart request, in ${where}`;
  }
  const fields = upload.fields.map(({ field, count }) => (count > 1 ? `${field} (${count} files)` : field));
  return `${upload.filename} (${upload.type}, ${upload.bytes / 1024} KiB) as multipart/form-data in ${fields.join(', ') || 'no file field'}`;
}

/**
 * What Fastify's answer to a route's file says, and its fix: a 415 is the missing multipart parser; anything else is
 * stated as it was answered, with the interceptor that reads Express's request.
 * @param {{ express: import('../check/compatibility.js').AdapterAnswer, fastify: import('../check/compatibility.js').AdapterAnswer }}
 *   answers
 * @param {UploadSent} upload
 * @returns {import('../scan/fastify-differences.js').Difference}
 */
export function uploadDifference({ express, fastify }, upload) {
  const sent = `sent ${uploadWords(upload)}: Express answered ${answered(express)}`;
  const at = upload.where ? ` at ${upload.where}` : '';
  const fix = upload.variables
    ? `on Fastify, ${GRAPHQL_UPLOAD_FIX}`
    : `on Fastify, ${fileInterceptorFix(`${upload.interceptor}${at}`)}`;
  if (fastify.status === 415 && express.status !== 415)
    return {
      kind: 'plugin',
      onFastify: `${sent}, Fastify 415 Unsupported Media Type: Nest’s FastifyAdapter registers no multipart/form-data parser, so ${upload.variables ? 'the operation never reached the GraphQL server' : `${upload.interceptor} never ran`}`,
      fix,
    };
  const broke = fastify.status === null || fastify.status >= 500;
  const reads = upload.variables
    ? `${upload.interceptor}${at} parses the multipart request on Express’s request`
    : `${upload.interceptor} is multer’s, which reads Express’s request`;
  return { kind: broke ? 'breaks' : 'differs', onFastify: `${sent}, Fastify ${answered(fastify)}: ${reads}`, fix };
}
