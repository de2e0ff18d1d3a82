import { checkWrites } from '../../../bench/analysis/check-writes.js';
import type { Compatibility } from '../../../bench/model/own-app-record.js';

const answer = (status: number, body: string) => ({ status, contentType: 'application/json', error: null, body });
const route = (request: string, express: ReturnType<typeof answer>, fastify: ReturnType<typeof answer>) => ({
  scenario: request.toLowerCase().replace(/\W+/g, '-'),
  request,
  same: true,
  difference: null,
  express,
  fastify,
  bodyVaries: false,
  expect: null,
  notMeasured: null,
});

describe('checkWrites', () => {
  it('lists each create sent for an id, then each write the check sent that the app took, with the id its answer named', () => {
    const compatibility: Compatibility = {
      startFailure: null,
      routes: [
        route('POST /todolist', answer(201, '{"data":{"id":7,"title":"t"}}'), answer(201, '{"data":{"id":8}}')),
        route('GET /todolist', answer(200, '[]'), answer(200, '[]')),
        route('PATCH /category/3', answer(200, '{"affected":1}'), answer(400, '{"message":"bad"}')),
      ],
    };
    const sentForIds = [{ request: 'POST /category', status: 201, body: '{"data":{"uuid":"b4be3ba8"}}' }];
    expect(checkWrites({ compatibility, sentForIds })).toEqual([
      { request: 'POST /category', adapter: 'express, for an id', status: 201, id: 'uuid "b4be3ba8"' },
      { request: 'POST /todolist', adapter: 'express', status: 201, id: 'id 7' },
      { request: 'POST /todolist', adapter: 'fastify', status: 201, id: 'id 8' },
      { request: 'PATCH /category/3', adapter: 'express', status: 200, id: null },
    ]);
  });

  it("names the id nearest the answer's top, the row the write made, not a row it points to", () => {
    const notice = '{"contents":"a \\"quoted\\" {note}","school":{"id":"1"},"id":446}';
    const compatibility: Compatibility = {
      startFailure: null,
      routes: [route('POST /school/1/notice', answer(201, notice), answer(201, '{"data":{"owner":{"id":1},"id":9}}'))],
    };
    expect(checkWrites({ compatibility }).map((w) => w.id)).toEqual(['id 446', 'id 9']);
  });

  it('lists every answer the check kept of a write: Express asked again and each write probe made a row too', () => {
    const post = route('POST /todolist', answer(201, '{"id":1}'), answer(201, '{"id":2}'));
    const written = [
      { request: 'POST /todolist', adapter: 'express', status: 201, body: '{"id":1}' },
      { request: 'POST /todolist', adapter: 'fastify', status: 201, body: '{"id":2}' },
      { request: 'POST /todolist', adapter: 'express', status: 201, body: '{"id":3}' },
      { request: 'POST /todolist/', adapter: 'express', status: 201, body: '{"id":4}' },
      { request: 'POST /todolist/', adapter: 'fastify', status: 404, body: '{"message":"Not Found"}' },
    ];
    const compatibility: Compatibility = { startFailure: null, routes: [{ ...post, written }] };
    expect(checkWrites({ compatibility }).map((w) => `${w.request} ${w.adapter} ${w.id}`)).toEqual([
      'POST /todolist express id 1',
      'POST /todolist fastify id 2',
      'POST /todolist express id 3',
      'POST /todolist/ express id 4',
    ]);
  });

  it('lists no GraphQL query, a read sent as a POST, and names each mutation beside the path they share', () => {
    const graphql = (scenario: string, id: string) => ({
      ...route('POST /graphql', answer(200, ''), answer(200, '')),
      scenario,
      written: [{ request: 'POST /graphql', adapter: 'express', status: 200, body: `{"data":{"x":{"id":"${id}"}}}` }],
    });
    const compatibility: Compatibility = {
      startFailure: null,
      routes: [graphql('graphql-tasks', 'there-before'), graphql('graphql-add-task', 'made'), graphql('checked', 'c')],
    };
    const entry = (scenario: string | null, handler: string, checked?: string) => ({
      method: 'POST',
      path: '/graphql',
      handler,
      scenario,
      request: 'POST /graphql',
      notMeasured: null,
      logged: 0,
      ...(checked ? { checked } : {}),
    });
    const routes = [
      entry('graphql-tasks', 'GraphQL query tasks'),
      entry('graphql-add-task', 'GraphQL mutation addTask'),
      entry(null, 'GraphQL query task', 'checked'),
    ];
    expect(checkWrites({ compatibility, routes })).toEqual([
      { request: 'POST /graphql (mutation addTask)', adapter: 'express', status: 200, id: 'id "made"' },
    ]);
  });
});
