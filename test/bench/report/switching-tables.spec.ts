import type { SwitchingCost } from '../../../bench/analysis/switching-cost.js';
import type { SwitchFinding } from '../../../bench/model/findings-record.js';
import { switchingFindingsTable } from '../../../bench/report/switching-tables.js';
import { plainText } from '../../../bench/report/rich-table.js';

const FILTER: SwitchFinding = {
  kind: 'breaks',
  source: 'code',
  what: 'response.json',
  route: null,
  where: 'src/filters/http-exception.filter.ts:14',
  code: 'response.status(status).json({',
  request: null,
  onFastify: 'the filter gets Fastify’s reply, which has no json()',
  fix: 'response.status(status).send(body)',
  answers: null,
  place: 'src/filters/http-exception.filter.ts:14',
  reach: 23,
  shared: {
    role: 'filter',
    registered: 'src/main.ts:12',
    routes: 23,
    symptoms: [
      {
        source: 'request',
        route: 'POST /offers',
        what: 'status 400 → 500',
        request: 'POST /offers',
        express: 400,
        fastify: 500,
      },
      {
        source: 'probe',
        route: 'GET /offers',
        what: 'preflight',
        request: 'OPTIONS /offers',
        express: 404,
        fastify: 500,
      },
      {
        source: 'probe',
        route: 'GET /wishes',
        what: 'preflight',
        request: 'OPTIONS /wishes',
        express: 404,
        fastify: 500,
      },
    ],
  },
};

const cost = (findings: SwitchFinding[]): SwitchingCost => ({
  findings,
  byKind: { breaks: 1, differs: 0, plugin: 0, works: 0, ifRemoved: 0 },
  places: 1,
  brokenRoutes: ['POST /offers'],
  gains: [],
  atRate: [],
  scanSkipped: null,
});

describe('switchingFindingsTable', () => {
  it('shows a shared cause once with the routes it reaches, where it is registered and the answers it explains', () => {
    const [row] = switchingFindingsTable(cost([FILTER])).rows.map((cells) => cells.map((cell) => plainText(cell)));
    expect(row[1]).toBe('23 routes (a filter registered at src/main.ts:12)');
    expect(row[3]).toBe(
      'the filter gets Fastify’s reply, which has no json(). Seen in 3 answers: POST /offers 400 → 500; preflight on 2 routes (404 → 500)',
    );
  });

  it('names the lines of code a middleware’s fix makes work, apart from the answers it explains', () => {
    const cookies: SwitchFinding = {
      ...FILTER,
      kind: 'plugin',
      what: 'app.use(cookie-parser)',
      where: 'src/main.ts:13',
      onFastify: 'cookie-parser sets req.cookies on the raw request',
      shared: {
        role: 'middleware',
        registered: 'src/main.ts:13',
        routes: 10,
        symptoms: [
          {
            source: 'code',
            route: 'GET /cart',
            what: 'req.cookies',
            request: null,
            where: 'src/cart.controller.ts:22',
            express: null,
            fastify: null,
          },
          { source: 'probe', route: 'GET /cart', what: 'cookies', request: 'GET /cart', express: 200, fastify: 200 },
        ],
      },
    };
    const [row] = switchingFindingsTable(cost([cookies])).rows.map((cells) => cells.map((cell) => plainText(cell)));
    expect(row[3]).toBe(
      'cookie-parser sets req.cookies on the raw request. Seen in 1 answer: cookies on 1 route (200 → 200); the code that works once it is fixed: req.cookies at src/cart.controller.ts:22',
    );
    const codeOnly = { ...cookies, shared: { ...cookies.shared!, symptoms: [cookies.shared!.symptoms[0]] } };
    expect(plainText(switchingFindingsTable(cost([codeOnly])).rows[0][3])).toBe(
      'cookie-parser sets req.cookies on the raw request. The code that works once it is fixed: req.cookies at src/cart.controller.ts:22',
    );
  });
});
