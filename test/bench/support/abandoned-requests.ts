// A CPU-bound server and clients that leave it mid-work: the backlog a load generator's end leaves behind.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

const BUSY_SERVER = fileURLToPath(new URL('./busy-server.js', import.meta.url));

/** Starts busy-server.js on `port`, answering each request after `cpuMsPerRequest` of synchronous work. */
export async function startBusyServer(port: number, cpuMsPerRequest: number): Promise<ChildProcess> {
  const server = spawn(process.execPath, [BUSY_SERVER, String(cpuMsPerRequest)], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve) => server.stdout?.once('data', resolve));
  return server;
}

/** Sends one request on each of `count` connections and closes them at once, as a load generator does when its run ends. */
export async function abandonRequests(port: number, count: number) {
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => {
            socket.end('GET /work HTTP/1.1\r\nHost: localhost\r\n\r\n');
            resolve();
          });
          socket.on('error', reject);
        }),
    ),
  );
}
