// @ts-check
// Which pair the verdict judges on a scenario. Usually the config's compared pair; where that pair has no route for
// the scenario, the pair shown beside it that starts the same two programs another way (the built-in app's TLS twins,
// its transfer twins: the same command in the same folder, another environment or protocol) stands in for it, so
// such a profile is measured and judged like any other.

/**
 * What both a config and its record in results.json say of a target.
 * @typedef {{ name: string, scenarios: string[] | null, command?: string[] | null, cwd?: string,
 *   url?: string | null }} TargetFacts
 */

/** @param {TargetFacts} target @param {string} scenario */
const answers = (target, scenario) => target.scenarios === null || target.scenarios.includes(scenario);

/** @param {TargetFacts} one @param {TargetFacts} other */
function sameProgram(one, other) {
  if (!one.command?.length || !other.command?.length || one.url || other.url) return false;
  return one.cwd === other.cwd && one.command.join('\u0000') === other.command.join('\u0000');
}

/**
 * The [numerator, denominator] the verdict judges on a scenario: the compared pair where both answer it, else the
 * first pair of alsoCompare whose targets answer it and run the compared targets' programs, in the same order; the
 * compared pair again when none does.
 * @param {{ targets: TargetFacts[], compare: [string, string], alsoCompare: [string, string][] }} config a config or
 *   its record
 * @param {string} scenario
 * @returns {[string, string]}
 */
export function judgedPairOn(config, scenario) {
  const byName = new Map(config.targets.map((target) => [target.name, target]));
  const target = (/** @type {string} */ name) => /** @type {TargetFacts} */ (byName.get(name));
  if (config.compare.every((name) => answers(target(name), scenario))) return config.compare;
  const twin = config.alsoCompare.find((pair) =>
    pair.every((name, i) => answers(target(name), scenario) && sameProgram(target(name), target(config.compare[i]))),
  );
  return twin ?? config.compare;
}

/**
 * Whether a pair's target is one side of the pair judged on its scenario.
 * @param {Parameters<typeof judgedPairOn>[0]} config @param {{ target: string, scenario: string }} pair
 */
export function isJudged(config, pair) {
  return judgedPairOn(config, pair.scenario).includes(pair.target);
}
