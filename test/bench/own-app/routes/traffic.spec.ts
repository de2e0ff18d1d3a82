import { parseTraffic } from '../../../../bench/own-app/routes/traffic.js';

const PINO_HTTP =
  '{"level":30,"time":1,"req":{"id":1,"method":"GET","url":"/api/users/7?fields=name","headers":{}},"res":{"statusCode":200},"responseTime":3,"msg":"request completed"}';
const FASTIFY_INCOMING =
  '{"level":30,"time":1,"reqId":"req-1","req":{"method":"GET","url":"/health","hostname":"localhost","remoteAddress":"127.0.0.1","remotePort":5000},"msg":"incoming request"}';
const FASTIFY_COMPLETED =
  '{"level":30,"time":2,"reqId":"req-1","res":{"statusCode":200},"responseTime":1.2,"msg":"request completed"}';
const COMMON = '127.0.0.1 - frank [10/Oct/2026:13:55:36 -0700] "GET /api/users HTTP/1.1" 200 2326';
const COMBINED =
  '10.0.0.2 - - [10/Oct/2026:13:55:37 +0000] "POST /api/users HTTP/1.1" 201 52 "https://example.com/" "Mozilla/5.0 (X11; Linux x86_64)"';

describe('parseTraffic', () => {
  it('reads method and url from pino-http lines', () => {
    expect(parseTraffic(PINO_HTTP).requests).toEqual([{ method: 'GET', url: '/api/users/7?fields=name' }]);
  });

  it('counts a Fastify request once: its incoming line has req, the completed line only res and is skipped', () => {
    const log = parseTraffic([FASTIFY_INCOMING, FASTIFY_COMPLETED].join('\n'));
    expect(log.requests).toEqual([{ method: 'GET', url: '/health' }]);
    expect(log.unreadable).toBe(0);
  });

  it('reads the common and the combined log format', () => {
    expect(parseTraffic([COMMON, COMBINED].join('\n')).requests).toEqual([
      { method: 'GET', url: '/api/users' },
      { method: 'POST', url: '/api/users' },
    ]);
  });

  it('reads a log that mixes both formats and says how many each gave', () => {
    expect(parseTraffic([PINO_HTTP, COMMON, COMBINED].join('\n')).formats).toEqual({ json: 1, clf: 2 });
  });

  it('counts malformed lines as unreadable and skips blank ones', () => {
    const log = parseTraffic(
      [
        COMMON,
        '',
        'GET /api/users 200 3 ms', // morgan's dev format names no client or time: not read
        '{"level":30,"msg":"Nest application successfully started"}',
        '{"req":{"method":"GET","url":"http://example.com/"}}', // an absolute url is no path on this app
        '{not json',
        '127.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "-" 400 0',
      ].join('\n'),
    );
    expect(log.requests).toHaveLength(1);
    expect(log.unreadable).toBe(5);
  });
});
