import { readFileSync } from 'node:fs';
import { StartupError } from '../common/startup-error.js';

/** How the app speaks to its clients: HTTP/1.1 by default, over TLS with a key and certificate, HTTP/2 on Fastify. */
export interface Transport {
  tls: { key: Buffer; cert: Buffer } | null;
  /** h2 over TLS when tls is set, else cleartext h2c. */
  http2: boolean;
}

export const PLAIN_HTTP: Transport = { tls: null, http2: false };

/** TLS_KEY_FILE and TLS_CERT_FILE (PEM, both or neither), HTTP2=1. */
export function transportFromEnv(env: NodeJS.ProcessEnv = process.env): Transport {
  const { TLS_KEY_FILE: keyFile, TLS_CERT_FILE: certFile } = env;
  if (Boolean(keyFile) !== Boolean(certFile)) {
    throw new StartupError('TLS needs both TLS_KEY_FILE and TLS_CERT_FILE (PEM files), or neither');
  }
  if (env.HTTP2 && env.HTTP2 !== '1') throw new StartupError(`HTTP2 must be 1 or unset (got "${env.HTTP2}")`);
  return {
    tls: keyFile && certFile ? { key: readPem(keyFile), cert: readPem(certFile) } : null,
    http2: env.HTTP2 === '1',
  };
}

function readPem(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new StartupError(`Cannot read ${file} (${(error as NodeJS.ErrnoException).code}); check TLS_*_FILE`);
  }
}

/** The scheme a client uses; h2 and h2c are told apart by the transport, not the URL. */
export function schemeOf(transport: Transport): 'http' | 'https' {
  return transport.tls ? 'https' : 'http';
}
