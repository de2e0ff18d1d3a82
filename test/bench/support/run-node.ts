import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readResults, RESULTS_FILE } from '../../../bench/model/results.js';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const CLI = join(ROOT, 'bench', 'bin', 'bench.js');
export const REPORT_CLI = join(ROOT, 'bench', 'bin', 'report.js');

export interface Finished {
  status: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** Start `node <args>` in the project root; `done` settles when it exits. */
export function startNode(args: string[]): { child: ChildProcess; done: Promise<Finished> } {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk) => {
    stderr += chunk;
  });
  const done = new Promise<Finished>((resolve) => {
    child.once('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
  return { child, done };
}

export function runNode(args: string[]): Promise<Finished> {
  return startNode(args).done;
}

/** results.json as a running bench last wrote it (whole: it writes a new file and renames it), or null before the first write. */
export function resultsSoFar(dir: string) {
  return existsSync(join(dir, RESULTS_FILE)) ? readResults(dir) : null;
}

/** Poll until `check` returns a value (the bench writes results.json after each run). */
export async function waitFor<T>(
  check: () => T | null | undefined | false,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
