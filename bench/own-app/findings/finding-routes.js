// @ts-check
// How the findings of a --nest-app run name what they are about (switching.js): a GraphQL operation beside its
// endpoint, and one row for a line of code and its route.

/**
 * A route as the findings name it: a GraphQL operation by its kind and name beside the endpoint, `POST /graphql ·
 * mutation updateUser`, so the operations of one endpoint are told apart.
 * @param {import('../routes/app-config.js').RouteEntry} entry
 */
export function routeLabel(entry) {
  const operation = entry.graphql && entry.graphql !== 'endpoint' ? entry.handler.replace(/^GraphQL /, '') : null;
  return `${entry.method} ${entry.path}${operation ? ` · ${operation}` : ''}`;
}

/**
 * The scan's rows, less those a route's own answers already say at the same line: a route sent a file is said at its
 * file interceptor's line with both answers, and the scan's row for that line and route would be the same finding
 * again.
 * @template {{ source: string, where: string | null, route: string | null }} Finding
 * @param {Finding[]} codeRows @param {Finding[]} answerRows
 */
export function oneRowPerLine(codeRows, answerRows) {
  const said = new Set(answerRows.filter((f) => f.source === 'request' && f.where).map((f) => `${f.where} ${f.route}`));
  return codeRows.filter((f) => !said.has(`${f.where} ${f.route}`));
}
