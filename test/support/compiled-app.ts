import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The tests compile src/ themselves, as `nest build` does (tsc with
 * tsconfig.build.json), into a folder of their own: they run on a fresh clone
 * without a prior build, and never rebuild dist/ under a server someone else
 * (the bench) is running. Inside node_modules, so packages resolve as from dist/.
 */
const OUT_DIR = `${ROOT}node_modules/.cache/nest-adapter-bench-e2e/dist`;
const TSC = `${ROOT}node_modules/typescript/bin/tsc`;

export async function compileApp(): Promise<string> {
  await rm(OUT_DIR, { recursive: true, force: true });
  await promisify(execFile)(
    process.execPath,
    [TSC, '-p', 'tsconfig.build.json', '--outDir', OUT_DIR, '--incremental', 'false'],
    {
      cwd: ROOT,
    },
  );
  return OUT_DIR;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<Exit>;
  /** Resolves with the first stdout line matching `pattern`; rejects if the process exits first. */
  waitForLine(pattern: RegExp): Promise<RegExpExecArray>;
}

/** Runs a compiled file with a clean environment: only PATH and what the test passes; on this node unless `runtime` names another binary. */
export function runCompiled(
  file: string,
  env: Record<string, string>,
  args: string[] = [],
  runtime: string = process.execPath,
): RunningProcess {
  const child = spawn(runtime, [file, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<Exit>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  const waitForLine = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = stdout
          .split('\n')
          .map((line) => pattern.exec(line))
          .find(Boolean);
        if (match) {
          child.stdout!.off('data', check);
          resolve(match);
        }
      };
      child.stdout!.on('data', check);
      void exited.then(({ code, signal }) =>
        reject(new Error(`exited (${code ?? signal}) before printing ${pattern}: ${stderr}`)),
      );
      check();
    });
  return { child, stdout: () => stdout, stderr: () => stderr, exited, waitForLine };
}

/** A loopback port that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
