// @ts-check
// The kinds of a --nest-app finding and their words, as every stage names them: `breaks` (an error or a lost value on
// Fastify), `differs` (it runs, with another answer), `plugin` (a Fastify plugin does the job), `works` (it works on
// Fastify: information, with the idiomatic way), `ifRemoved` (it matters only once the Express platform is removed
// from the app).

/** @typedef {'breaks' | 'differs' | 'plugin' | 'works' | 'ifRemoved'} FindingKind */

export const KIND_ORDER = /** @type {FindingKind[]} */ (['breaks', 'differs', 'plugin', 'works', 'ifRemoved']);
export const KIND_WORDS = /** @type {Record<FindingKind, string>} */ ({
  breaks: 'breaks',
  differs: 'behaves differently',
  plugin: 'needs a plugin',
  works: 'works (information)',
  ifRemoved: 'only if you remove the Express platform',
});
/** The kinds that ask for a change before a switch; the others are information. */
export const CHANGE_KINDS = new Set(/** @type {FindingKind[]} */ (['breaks', 'differs', 'plugin']));
