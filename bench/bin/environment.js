// @ts-check
// Everything about the machine and software a result depends on, recorded with every run.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { hostIdentity } from '../run/host.js';
import { PROJECT_ROOT } from '../model/project-root.js';

/** The packages whose versions decide the outcome. */
const PACKAGES = [
  'express',
  'fastify',
  '@nestjs/core',
  '@nestjs/common',
  '@nestjs/platform-express',
  '@nestjs/platform-fastify',
  '@nestjs/typeorm',
  '@nestjs/jwt',
  'typeorm',
  'mysql2',
  'sql.js',
  'class-validator',
  'autocannon',
];
const BYTES_PER_GIB = 1024 ** 3;

/**
 * @typedef {import('../model/records.js').Environment} Environment
 */

/**
 * @param {{ runtimes: import('../runtimes/runtimes.js').Runtime[], driverVersion: string, generators: string[],
 *   cpus: { server: string, generator: string } | null }} context generators: every one the run uses, with its version
 * @returns {Environment}
 */
export function collectEnvironment({ runtimes, driverVersion, generators, cpus: pinning }) {
  return {
    cpu: {
      model: cpus()[0]?.model.trim() ?? 'unknown',
      // the machine's CPUs, not the bench's own: when pinned, the bench process runs on one of them
      count: cpus().length,
      governor: readTrimmed('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor'),
    },
    host: hostIdentity(),
    memoryGiB: Math.round((totalmem() / BYTES_PER_GIB) * 10) / 10,
    os: { kernel: `Linux ${release()}`, distribution: osRelease() },
    bench: { node: process.versions.node, argv: process.argv.slice(2) },
    runtimes,
    packages: Object.fromEntries(PACKAGES.map((name) => [name, packageVersion(name)])),
    driver: driverVersion,
    generators,
    git: gitState(),
    database: describeDatabase(process.env.DATABASE_URL),
    cpus: pinning,
  };
}

/** @param {string} path */
function readTrimmed(path) {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

function osRelease() {
  const text = readTrimmed('/etc/os-release');
  const match = text && /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(text);
  return match ? match[1] : null;
}

/** @param {string} name */
function packageVersion(name) {
  const text = readTrimmed(join(PROJECT_ROOT, 'node_modules', name, 'package.json'));
  return text ? JSON.parse(text).version : null;
}

function gitState() {
  try {
    const git = (/** @type {string[]} */ ...args) =>
      execFileSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return { commit: git('rev-parse', 'HEAD'), dirty: git('status', '--porcelain', '--untracked-files=no') !== '' };
  } catch {
    return { commit: null, dirty: null };
  }
}

/**
 * @param {string | undefined} url
 */
export function describeDatabase(url) {
  if (!url) return 'embedded (DATABASE_URL not set)';
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL (unparsable, passed through as is)';
  }
}
