// @ts-check
// --nest-app: the rows the bench's check wrote to the app's data before timing, each with the id its answer named, so
// the user knows what to remove; the timed writes are counted in the Writes table.
import { code } from './rich-table.js';

/** @typedef {import('./rich-table.js').Table} Table */

/**
 * @param {import('../analysis/analyze.js').Analysis} analysis
 * @returns {{ table: Table }[]}
 */
export function checkWritesTables({ ownApp }) {
  const rows = ownApp?.checkWrites ?? [];
  if (rows.length === 0) return [];
  return [
    {
      table: {
        title: 'What the bench wrote before timing',
        intro:
          'A create was sent once where a route needed an id no list held (for an id). Then the check, signed in as ' +
          'your setup signs in, sent the reads first and the writes after them, POST, DELETE, PATCH, then PUT (a PUT ' +
          'may rename what others name), each to Express, to Fastify and to Express again, and no write where every ' +
          'read was refused. A write’s path named only a row the bench had made (for an id), never ' +
          'one that was there before the run. Each answer the app took (a 2xx) is here: each may have created ' +
          'or changed a row (a sign-in may only have issued a token), with the id its answer named where it named ' +
          'one. The probes beyond a route’s own request (a form, a trailing slash) may have written too; those ' +
          'answered differently are in What to change. Writes that would change the signed-in account were listed ' +
          'instead, never sent (every route, below).',
        headers: ['request', 'adapter', 'status', 'its answer named'],
        align: ['left', 'left', 'right', 'left'],
        rows: rows.map((row) => [code(row.request), row.adapter, String(row.status), row.id ? code(row.id) : '—']),
      },
    },
  ];
}
