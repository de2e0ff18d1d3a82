// @ts-check
// `PORT=… node busy-server.js CPU_MS`: answers every request after CPU_MS of synchronous work, one at a time, as a
// password hash does — so requests sent together queue up inside the server and outlive their clients.
import { createServer } from 'node:http';

const cpuMs = Number(process.argv[2]);
const port = Number(process.env.PORT);

createServer((request, response) => {
  const until = performance.now() + cpuMs;
  while (performance.now() < until);
  response.end('ok');
}).listen(port, '127.0.0.1', () => console.log(`listening on ${port}, ${cpuMs} ms of CPU per request`));
