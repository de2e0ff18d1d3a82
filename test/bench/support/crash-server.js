// @ts-check
// `PORT=… node crash-server.js PATH`: answers every request `ok`, but one to PATH throws where nothing catches it, so
// the process ends with exit code 1 and the error on stderr, as an app's bug does. `never` as PATH: it never ends.
import { createServer } from 'node:http';

const crashPath = process.argv[2];
const port = Number(process.env.PORT);

createServer((request, response) => {
  if (request.url === crashPath) throw new Error(`asked to crash by ${request.method} ${request.url}`);
  response.end('ok');
}).listen(port, '127.0.0.1', () => console.log(`listening on ${port}`));
