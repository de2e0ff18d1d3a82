// @ts-check
// --baseline DIR: the base build of the user's app (the same app built in another folder, e.g. a checkout of main),
// found at the candidate's own place in it, with its own packages; and which commit each build is, in a git checkout.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { appRoot, resolveNestApp, resolveNestMain } from '../launch/packages.js';
import { commitWords } from '../../model/own-app-record.js';

/**
 * @typedef {import('../launch/packages.js').NestApp} NestApp
 * @typedef {import('../../model/own-app-record.js').BuildRecord} BuildRecord
 */

/**
 * The base build: the file at the candidate's place under DIR (dist/main.js in both), run from the same place, with
 * the @nestjs packages installed under DIR.
 * @param {NestApp} candidate @param {string} dir --baseline as given
 * @returns {NestApp}
 * @throws {UsageError} DIR is no folder, holds no such build, or has no @nestjs packages
 */
export function resolveBaseline(candidate, dir) {
  const baseRoot = resolve(dir);
  if (!statSync(baseRoot, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(
      `--baseline ${dir}: no such folder; give the folder of the base build (e.g. a checkout of main)`,
    );
  const root = appRoot(dirname(candidate.moduleFile));
  const at = (/** @type {string} */ file) => resolve(baseRoot, relative(root, file));
  const file = at(candidate.moduleFile);
  if (!existsSync(file))
    throw new UsageError(
      `--baseline ${dir}: no ${relative(process.cwd(), file) || file}, where the candidate has ${relative(root, candidate.moduleFile)}; build the base there first (e.g. npm ci && npm run build)`,
    );
  const inside = !relative(root, candidate.cwd).startsWith('..');
  const cwd = inside ? at(candidate.cwd) : candidate.cwd;
  try {
    const base = candidate.mainFile
      ? resolveNestMain(file, candidate.setupFile, cwd)
      : resolveNestApp(candidate.exportName ? `${file}#${candidate.exportName}` : file, candidate.setupFile, cwd);
    return { ...base, fastifyOptions: candidate.fastifyOptions ?? null, strict: candidate.strict ?? false };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    throw new UsageError(`--baseline ${dir}: ${error.message.replace(/^--nest-(?:main|app)(?: \S+)?: /, '')}`);
  }
}

/**
 * What the report says of one build: the target that runs it, its file and folder, and its commit where it is a git
 * checkout (changed: files differ from that commit).
 * @param {NestApp} app @param {string} target
 * @returns {BuildRecord}
 */
export function buildRecord(app, target) {
  const dir = dirname(app.moduleFile);
  const git = (/** @type {string[]} */ args) =>
    execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  let commit = null;
  let changed = null;
  try {
    commit = git(['rev-parse', 'HEAD']);
    changed = git(['status', '--porcelain', '--untracked-files=no']) !== '';
  } catch {
    // not a git checkout, or no git: the folder alone names the build
  }
  return { target, module: app.moduleFile, cwd: app.cwd, commit, changed, nestCore: app.versions['@nestjs/core'] };
}

/**
 * The two builds in one line each, as the log opens a --baseline run with them.
 * @param {BuildRecord} build @param {string} role
 */
export function buildLine(build, role) {
  return `${role}: ${build.target} runs ${build.module} (${commitWords(build)})`;
}
