// @ts-check
// `node stalling-server.js PORT STALL_MS EVERY_MS`: answers at once, except that every EVERY_MS it blocks its event
// loop for STALL_MS, as a long GC pause or a synchronous hot spot would.
import { createServer } from 'node:http';

const [port, stallMs, everyMs] = process.argv.slice(2).map(Number);

/** @param {number} ms */
function blockFor(ms) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

createServer((_request, response) => response.end('ok')).listen(port, '127.0.0.1', () => {
  setInterval(() => blockFor(stallMs), everyMs);
  console.log(`listening on ${port}`);
});
