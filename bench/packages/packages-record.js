// @ts-check
// What results.json keeps of a --packages run: each set as installed and each cell, so reports need no registry.

/** @typedef {import('../model/package-sets-record.js').PackagesRecord} PackagesRecord */

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
