// @ts-check
// What results.json keeps of a --packages run: each set as installed and each cell, so reports need no registry.

/**
 * @typedef {object} PackagesRecord
 * @property {string} requested the --packages text
 * @property {Array<Omit<import('./sets.js').PackageSet, 'dir'>>} sets
 * @property {Array<{ key: string, runtime: string, set: string, telemetryMissing: string | null,
 *   databaseMissing?: string | null, alias?: string, appVersions?: Record<string, string> }>} cells in run order;
 *   databaseMissing: why the era app served no DB routes there (absent in runs before it had them); alias: the
 *   --packages alias that made the cell; appVersions: --nest-app, the packages the user's app ran on there
 * @property {Array<{ key: string, reason: string }>} [refused] --nest-app: the cells the user's app could not run on
 */

/**
 * @param {string | null} requested
 * @param {import('./cells.js').Cell[]} cells
 * @param {Array<{ key: string, reason: string }>} refused
 * @returns {PackagesRecord}
 */
export function packagesRecord(requested, cells, refused) {
  const sets = new Map(cells.map((cell) => [cell.set.label, cell.set]));
  return {
    requested: requested ?? '',
    sets: [...sets.values()].map(({ dir: _dir, ...set }) => set),
    cells: cells.map((cell) => ({
      key: cell.key,
      runtime: `${cell.runtime.name}@${cell.runtime.version}`,
      set: cell.set.label,
      telemetryMissing: cell.telemetryMissing,
      databaseMissing: cell.databaseMissing,
      ...(cell.alias ? { alias: cell.alias } : {}),
      ...(cell.ownApp ? { appVersions: cell.ownApp.versions } : {}),
    })),
    ...(refused.length ? { refused } : {}),
  };
}
