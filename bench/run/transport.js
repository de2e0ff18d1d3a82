// @ts-check
// One request to a server under test, whatever it speaks: the URL's scheme says how. http: and https: are HTTP/1.1
// (without and over TLS); h2: is HTTP/2 over TLS and h2c: HTTP/2 in cleartext, with prior knowledge, as h2load
// speaks them. The bench's certificates are its own, made for the run: they are not checked against a CA.
import { Agent, request as httpRequest } from 'node:http';
import { connect, constants } from 'node:http2';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { bodyBytes } from '../model/payloads.js';

/** @typedef {{ status: number, headers: Record<string, string | string[] | undefined>, body: Buffer, protocol: string }} RawAnswer */

/** The schemes a target's url may have. */
export const SCHEMES = Object.freeze(['http', 'https', 'h2', 'h2c']);

/** @param {string} url */
export function isHttp2(url) {
  return url.startsWith('h2:') || url.startsWith('h2c:');
}

/**
 * @param {string} url
 * @param {{ method: string, headers: Record<string, string>, body: string | undefined }} req
 * @param {{ agent?: Agent, timeoutMs: number }} connection a keep-alive agent the caller owns (HTTP/1.1 only)
 * @returns {Promise<RawAnswer>}
 */
export function requestOnce(url, req, connection) {
  return isHttp2(url) ? http2Request(url, req, connection.timeoutMs) : http1Request(url, req, connection);
}

/**
 * @param {string} url
 * @param {{ method: string, headers: Record<string, string>, body: string | undefined }} req
 * @param {{ agent?: Agent, timeoutMs: number }} connection
 * @returns {Promise<RawAnswer>}
 */
function http1Request(url, { method, headers, body }, { agent: shared, timeoutMs }) {
  const tls = url.startsWith('https:');
  const agent =
    shared ??
    (tls
      ? new HttpsAgent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false })
      : new Agent({ keepAlive: true, maxSockets: 1 }));
  const send = tls ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(url, { method, headers, agent, timeout: timeoutMs }, (res) => {
      /** @type {Buffer[]} */
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.once('end', () =>
        resolve({
          status: /** @type {number} */ (res.statusCode),
          headers: res.headers,
          body: Buffer.concat(chunks),
          protocol: `HTTP/${res.httpVersion}`,
        }),
      );
    });
    outgoing.once('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    outgoing.once('error', reject);
    if (!shared) outgoing.once('close', () => agent.destroy());
    outgoing.end(bodyBytes(body, headers));
  });
}

/**
 * HTTP/2 on a session of its own: over TLS it must be negotiated (ALPN h2 alone), so a server that speaks only
 * HTTP/1.1 is refused rather than answered.
 * @param {string} url
 * @param {{ method: string, headers: Record<string, string>, body: string | undefined }} req
 * @param {number} timeoutMs
 * @returns {Promise<RawAnswer>}
 */
function http2Request(url, { method, headers, body }, timeoutMs) {
  const target = new URL(url);
  const origin = `${target.protocol === 'h2:' ? 'https' : 'http'}://${target.host}`;
  return new Promise((resolve, reject) => {
    const session = connect(origin, { rejectUnauthorized: false, ALPNProtocols: ['h2'] });
    const fail = (/** @type {Error} */ error) => {
      session.destroy();
      reject(error);
    };
    session.once('error', fail);
    session.setTimeout(timeoutMs, () => fail(new Error(`no answer within ${timeoutMs / 1000} s`)));
    // HTTP/2 refuses connection-specific headers
    const { connection: _connection, ...rest } = headers;
    const stream = session.request({
      [constants.HTTP2_HEADER_METHOD]: method,
      [constants.HTTP2_HEADER_PATH]: `${target.pathname}${target.search}`,
      ...rest,
    });
    /** @type {Buffer[]} */
    const chunks = [];
    /** @type {Record<string, string | string[] | undefined>} */
    let answerHeaders = {};
    stream.once('response', (received) => {
      answerHeaders = received;
    });
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.once('error', fail);
    stream.once('end', () => {
      const status = Number(answerHeaders[constants.HTTP2_HEADER_STATUS]);
      const { [constants.HTTP2_HEADER_STATUS]: _status, ...kept } = answerHeaders;
      session.close();
      resolve({ status, headers: kept, body: Buffer.concat(chunks), protocol: 'h2' });
    });
    stream.end(bodyBytes(body, headers));
  });
}
