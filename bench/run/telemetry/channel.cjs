// @ts-check
// How the bench asks something of a server it started: one line to a Unix socket the server's preload listens on,
// one JSON line back. No signal: apps and Nest's enableShutdownHooks() listen for SIGUSR1, SIGUSR2 and SIGHUP.
'use strict';
const { createConnection, createServer } = require('node:net');

/**
 * Serves the bench's requests on `path`: each connection sends a command name and a newline, and gets what that
 * command returns as one JSON line. The socket does not keep the process alive; nothing runs per HTTP request.
 * @param {string} path
 * @param {Record<string, () => unknown>} commands
 */
function serveBench(path, commands) {
  const server = createServer((socket) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end === -1) return;
      const command = commands[text.slice(0, end)];
      socket.end(`${JSON.stringify(command ? command() : null)}\n`);
    });
  });
  server.on('error', (error) => process.emitWarning(`bench channel at ${path}: ${error.message}`));
  server.listen(path);
  server.unref();
  return server;
}

/**
 * Sends `command` to the server listening on `path` and resolves with its answer; null when nothing listens there or
 * no answer came within `timeoutMs`.
 * @param {string} path @param {string} command @param {number} timeoutMs
 * @returns {Promise<unknown>}
 */
function askServer(path, command, timeoutMs) {
  return new Promise((resolve) => {
    let text = '';
    const socket = createConnection(path);
    const done = (/** @type {unknown} */ answer) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    socket.setEncoding('utf8');
    socket.on('error', () => done(null));
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('end', () => {
      try {
        done(JSON.parse(text));
      } catch {
        done(null);
      }
    });
    socket.write(`${command}\n`);
  });
}

module.exports = { serveBench, askServer };
