import type { INestApplication } from '@nestjs/common';
import type { Server as HttpServer } from 'node:http';
import { DataSource } from 'typeorm';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/**
 * How often a stopping server closes the keep-alive connections that have
 * become idle: server.close() closes those idle at that moment only, and a
 * connection whose request finishes later would stay open until the deadline.
 */
const IDLE_CONNECTION_SWEEP_MS = 100;

/**
 * On SIGINT or SIGTERM: stop accepting, let requests in flight finish, close
 * the database (app.close() does all three), and exit 0. If that takes longer
 * than `timeoutMs` — a client that never finishes its request, a database that
 * does not answer — print one line naming what is still open and exit 1.
 */
export function closeOnSignals(app: INestApplication, timeoutMs: number): void {
  const stop = () => {
    for (const signal of SIGNALS) process.off(signal, stop);
    const server = app.getHttpServer() as HttpServer;
    setInterval(() => server.closeIdleConnections(), IDLE_CONNECTION_SWEEP_MS).unref();
    setTimeout(() => void exitWithWhatIsOpen(app, timeoutMs), timeoutMs);
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`Shutdown failed: ${String((error as Error)?.message ?? error).split('\n')[0]}`);
        process.exit(1);
      },
    );
  };
  for (const signal of SIGNALS) process.on(signal, stop);
}

async function exitWithWhatIsOpen(app: INestApplication, timeoutMs: number): Promise<never> {
  const server = app.getHttpServer() as HttpServer;
  const connections = await new Promise<number>((resolve) => server.getConnections((_, count) => resolve(count ?? 0)));
  const open = [
    ...(connections > 0 ? [`${connections} HTTP connection${connections === 1 ? '' : 's'}`] : []),
    ...(app.get(DataSource, { strict: false }).isInitialized ? ['the database connection'] : []),
  ];
  console.error(
    `Shutdown did not finish within ${timeoutMs} ms; still open: ${open.length > 0 ? open.join(', ') : 'no connection, a shutdown hook is still running'}; exiting`,
  );
  process.exit(1);
}
