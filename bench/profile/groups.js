// @ts-check
/**
 * Which part of the stack a profile frame belongs to: the express or fastify package with their dependencies,
 * @nestjs/*, the ORM and database drivers, the production stack's middleware (security headers, compression, the
 * request logger, class-transformer), the application, node's internals, V8/native code, GC, idle.
 *
 * Package groups come from the installed dependency graph (package.json dependencies, peerDependencies and
 * optionalDependencies, resolved through node_modules the way node resolves them), not from a hand-written list.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** @typedef {import('../model/profile-record.js').GroupId} GroupId */

/** Every group, in the order reports list them, with the colour its flame-graph frames get. */
export const GROUPS = /** @type {const} */ ([
  { id: 'express', label: 'express (+ deps)', color: '#e8a33d' },
  { id: 'fastify', label: 'fastify (+ deps)', color: '#3d9ee8' },
  { id: 'nestjs', label: '@nestjs/* (+ deps)', color: '#e0234e' },
  { id: 'orm-db', label: 'ORM & DB driver', color: '#9b59b6' },
  { id: 'helmet', label: 'helmet (security headers)', color: '#1abc9c' },
  { id: 'compression', label: 'compression & zlib', color: '#16a085' },
  { id: 'logger', label: 'pino request logger', color: '#d35400' },
  { id: 'class-transformer', label: 'class-transformer', color: '#c0392b' },
  { id: 'app', label: 'application', color: '#2ecc71' },
  { id: 'other-packages', label: 'other packages', color: '#95a5a6' },
  { id: 'node', label: 'node internals', color: '#8bc34a' },
  { id: 'native', label: 'V8 & native (C++, builtins)', color: '#f1c40f' },
  { id: 'gc', label: 'GC', color: '#795548' },
  { id: 'idle', label: 'idle', color: '#d5d8dc' },
  { id: 'unaccounted', label: 'unaccounted', color: '#000000' },
]);

/**
 * Package groups, claimed in this order. A group owns its roots; then each package reachable from them that no
 * earlier group claimed, never walking into another group's roots. The adapters come first because the question
 * the profiles answer is what each adapter costs: a package both express and typeorm use (debug) counts for express.
 * Each middleware group names both adapters' packages as roots, so that pino stays the logger's although fastify
 * depends on it, and class-transformer its own although @nestjs/common lists it as a peer.
 * @type {{ id: GroupId, roots: (name: string) => boolean }[]}
 */
const PACKAGE_GROUPS = [
  { id: 'express', roots: (name) => name === 'express' },
  { id: 'fastify', roots: (name) => name === 'fastify' },
  { id: 'nestjs', roots: (name) => name.startsWith('@nestjs/') },
  { id: 'orm-db', roots: (name) => ['typeorm', 'mysql2', 'sql.js'].includes(name) },
  { id: 'helmet', roots: (name) => ['helmet', '@fastify/helmet'].includes(name) },
  { id: 'compression', roots: (name) => ['compression', '@fastify/compress'].includes(name) },
  { id: 'logger', roots: (name) => name === 'pino' || name.startsWith('pino-') || name === 'nestjs-pino' },
  { id: 'class-transformer', roots: (name) => name === 'class-transformer' },
];

/**
 * Node's own modules that belong to a middleware group: zlib's JavaScript half is what compression costs on the main
 * thread (the deflating itself runs on libuv's thread pool, which the profiler does not sample).
 * @type {Record<string, GroupId>}
 */
const NODE_MODULE_GROUPS = { 'node:zlib': 'compression' };

const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/** @param {string} dir */
function readManifest(dir) {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Node's lookup: <dir>/node_modules/<name>, then each parent directory's.
 * @param {string} fromDir
 * @param {string} name
 */
function resolvePackageDir(fromDir, name) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

/** @param {string} nodeModules */
function topLevelPackageNames(nodeModules) {
  const names = [];
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    if (entry.name.startsWith('@')) {
      for (const scoped of readdirSync(path.join(nodeModules, entry.name))) names.push(`${entry.name}/${scoped}`);
    } else {
      names.push(entry.name);
    }
  }
  return names;
}

/**
 * Package directory → group for one project's node_modules.
 * @param {string} projectRoot the directory holding node_modules
 * @returns {Map<string, GroupId>}
 */
export function packageGroupsOf(projectRoot) {
  const nodeModules = path.join(projectRoot, 'node_modules');
  /** @type {Map<string, GroupId>} */
  const owner = new Map();
  if (!existsSync(nodeModules)) return owner;
  const names = topLevelPackageNames(nodeModules);
  const rootDirs = new Map(
    PACKAGE_GROUPS.map((g) => [g.id, names.filter(g.roots).map((n) => path.join(nodeModules, n))]),
  );
  const allRoots = new Set([...rootDirs.values()].flat());
  for (const group of PACKAGE_GROUPS) {
    const queue = [...(rootDirs.get(group.id) ?? [])];
    for (const dir of queue) owner.set(dir, group.id);
    while (queue.length) {
      const dir = /** @type {string} */ (queue.shift());
      const manifest = readManifest(dir);
      if (!manifest) continue;
      const deps = { ...manifest.optionalDependencies, ...manifest.peerDependencies, ...manifest.dependencies };
      for (const name of Object.keys(deps)) {
        const depDir = resolvePackageDir(dir, name);
        if (!depDir || owner.has(depDir) || allRoots.has(depDir)) continue;
        owner.set(depDir, group.id);
        queue.push(depDir);
      }
    }
  }
  return owner;
}

/**
 * The file path of a script URL as V8 logs it (a path for CommonJS, file:// for ES modules), or null.
 * @param {string} url
 */
function scriptPath(url) {
  if (url.startsWith('file://')) {
    try {
      return fileURLToPath(url);
    } catch {
      return null;
    }
  }
  return path.isAbsolute(url) ? url : null;
}

/**
 * A classifier for script URLs, building each project's package graph once, when a script from it is first seen.
 * @returns {(url: string) => GroupId | null} null: no script (code compiled at run time, e.g. new Function)
 */
export function createScriptClassifier() {
  /** @type {Map<string, Map<string, GroupId>>} */
  const projects = new Map();
  /** @type {Map<string, GroupId | null>} */
  const cache = new Map();
  return (url) => {
    let group = cache.get(url);
    if (group !== undefined) return group;
    group = classify(url);
    cache.set(url, group);
    return group;
  };

  /** @param {string} url @returns {GroupId | null} */
  function classify(url) {
    if (url.startsWith('node:')) return NODE_MODULE_GROUPS[url] ?? 'node';
    // Deno's runtime code, its node: modules (ext:deno_node/…) among it: what node's internals are under Node
    if (url.startsWith('ext:')) return 'node';
    const file = scriptPath(url);
    if (!file) return null;
    const first = file.indexOf(NODE_MODULES);
    if (first < 0) return 'app';
    const projectRoot = file.slice(0, first);
    let groups = projects.get(projectRoot);
    if (!groups) {
      groups = packageGroupsOf(projectRoot);
      projects.set(projectRoot, groups);
    }
    // The innermost node_modules/<name> (or <@scope/name>) directory holds the file.
    const last = file.lastIndexOf(NODE_MODULES) + NODE_MODULES.length;
    const parts = file.slice(last).split(path.sep);
    const packageDir =
      file.slice(0, last) + (parts[0].startsWith('@') ? `${parts[0]}${path.sep}${parts[1]}` : parts[0]);
    return groups.get(packageDir) ?? 'other-packages';
  }
}
