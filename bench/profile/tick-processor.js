// @ts-check
/**
 * Runs node's own tick processor (`node --prof-process`) on a log, with the symbol tables from symbols.js behind
 * nm-shim.sh and only the load window's ticks. Its text report is the `.txt` a user knows; its `--preprocess` JSON
 * (every tick's stack as code entries) feeds our summary and flame graph, so both come from the same code map.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const NM_SHIM = fileURLToPath(new URL('./nm-shim.sh', import.meta.url));
export const SYMBOLS_ENV = 'BENCH_PROFILE_SYMBOLS';
const US_PER_MS = 1000;

/**
 * @typedef {{ startUs: number, endUs: number } | null} TickWindow null: the whole log
 * @typedef {{ node: string, logFile: string, symbolsDir: string, window: TickWindow, preprocess?: boolean, outFile: string }} TickProcessorRun
 */

/**
 * The tick processor takes whole milliseconds (`--range=start,end`), so the window is rounded inwards; the summary
 * counts ticks against the same bounds, so the two agree on which ticks are in.
 * @param {NonNullable<TickWindow>} window
 * @returns {{ startMs: number, endMs: number }}
 */
export function windowInWholeMs(window) {
  return { startMs: Math.ceil(window.startUs / US_PER_MS), endMs: Math.floor(window.endUs / US_PER_MS) };
}

/** @param {TickWindow} window */
export function rangeFlag(window) {
  if (!window) return [];
  const { startMs, endMs } = windowInWholeMs(window);
  return [`--range=${startMs},${endMs}`];
}

/**
 * @param {TickProcessorRun} run
 * @returns {Promise<void>} resolves when outFile is written
 */
export function runTickProcessor({ node, logFile, symbolsDir, window, preprocess = false, outFile }) {
  const args = [
    '--no-warnings', // its vm-modules ExperimentalWarning
    '--prof-process',
    `--nm=${NM_SHIM}`,
    `--objdump=${NM_SHIM}`,
    ...rangeFlag(window),
    ...(preprocess ? ['--preprocess'] : []),
    path.resolve(logFile),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, {
      env: { ...process.env, [SYMBOLS_ENV]: path.resolve(symbolsDir) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = createWriteStream(outFile);
    child.stdout.pipe(out);
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      out.close(() => {
        if (code === 0) resolve();
        else
          reject(
            new Error(`${node} --prof-process exited with ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`),
          );
      });
    });
  });
}
