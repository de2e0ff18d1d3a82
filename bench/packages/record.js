// @ts-check
// What results.json keeps of a --packages run: each set as installed and each cell, so reports need no registry.

/**
 * @typedef {object} PackagesRecord
 * @property {string} requested the --packages text
 * @property {Array<Omit<import('./sets.js').PackageSet, 'dir'>>} sets
 * @property {Array<{ key: string, runtime: string, set: string, telemetryMissing: string | null,
 *   databaseMissing?: string | null, alias?: string }>} cells in run order; databaseMissing: why the era app served
 *   no DB routes there (absent in runs before it had them); alias: the --packages alias that made the cell
 */

/**
 * @param {string | null} requested
 * @param {import('./cells.js').Cell[]} cells
 * @returns {PackagesRecord}
 */
export function packagesRecord(requested, cells) {
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
    })),
  };
}
