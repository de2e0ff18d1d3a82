// @ts-check
// One short run of the bench's launcher in the app's folder, one mode at a time (the routes it registers, a boot on
// Fastify alone): what it printed and how it ended, for the step that asked to read.
import { spawn } from 'node:child_process';
import { SERVER_NODE_ENV } from '../../run/targets.js';
import { LAUNCHER } from './packages.js';
import { launcherArgs, launcherEnv } from './launcher-env.js';

/**
 * @param {import('./packages.js').NestApp} app
 * @param {'express' | 'fastify'} adapter
 * @param {Record<string, string>} mode the variable that picks what the launcher does, e.g. { NEST_APP_ROUTES: '1' }
 * @param {number} timeoutMs
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
export function runLauncher(app, adapter, mode, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, launcherArgs(app, LAUNCHER), {
      cwd: app.cwd,
      env: { ...process.env, PWD: app.cwd, ...launcherEnv(app, adapter), ...mode, NODE_ENV: SERVER_NODE_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
