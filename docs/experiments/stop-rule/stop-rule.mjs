// The stop rule's coverage, seeded: one compared row under the default design (3 steady rounds a start, a look after
// each start from the third, a stop once the interval at the deciding level lies in one band), for true ratios inside
// a band (1.2×, 1.8×) and on the edge between two (1.5×), at the variance splits measured with the pair loaded
// together (docs/method.md, "The stop rule's coverage"), for as many starts as fit.
//
//   node docs/experiments/stop-rule/stop-rule.mjs [trials, default 10000] [--margin M] [--split NAME=B,W]
//
// --margin M runs only the borderline tables, at that margin (default the bench's BORDERLINE_MARGIN), over true ratios
// across the edge and that margin, and a third one: the headline, which no look stops, judged once at the end level.
// --split adds a variance split (σ between starts, σ within a start) by name, as splits.mjs prints it;
// --headline-rounds R gives the headline's starts R steady rounds each (default the fewest a block keeps).
//
// Each rule is [deciding level, level a stopped row is shown at, level a row measured to the end is shown at].
//
// The second table (2026-12-07) adds borderline as a way to stop (bench/analysis/verdict.js): a look whose interval
// lies within BORDERLINE_MARGIN of an edge, in no one band, stops the row too. Its true ratios run across the edge and
// the margin; for each cell it gives the reported interval's coverage, the rows decided in a band and borderline, and
// how many borderline rows had their truth outside the margin (a wrong borderline).
import { analyzeStarts, STOP_RULE } from '../../../bench/analysis/starts.js';
import { seededRandom } from '../../../bench/analysis/stats.js';
import { BORDERLINE_MARGIN, band, edgeWithin, isBorderline, measuredVerdict } from '../../../bench/analysis/verdict.js';
import { FIRST_LOOK_STARTS, MAX_STARTS } from '../../../bench/model/design.js';
import { RECORDED_BEFORE_STOP_RULE } from '../../../bench/model/results.js';
import { MIN_STEADY_ROUNDS } from '../../../bench/run/designs/steady-block.js';

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const TRIALS = Number(args.find((arg, i) => /^\d+$/.test(arg) && !args[i - 1]?.startsWith('--')) ?? 10_000);
const MARGIN = option('--margin') === undefined ? null : Number(option('--margin'));
/** The headline's steady rounds a start (its blocks keep more than the fewest: 6 in the default runs of 2026-12-07). */
const HEADLINE_ROUNDS = Number(option('--headline-rounds') ?? MIN_STEADY_ROUNDS);
/** σ of a start's own level and of a round about it, on the log scale (splits.txt). */
const SPLITS = {
  'hello · bare (quietest)': { between: 0.027, within: 0.055 },
  'purchases · bare (most between starts)': { between: 0.053, within: 0.109 },
  'catalog · production (most within a start)': { between: 0.039, within: 0.227 },
  'the earlier simulation': { between: 0.19, within: 0.15 },
};
if (option('--split')) {
  const [name, split] = option('--split').split('=');
  const [between, within] = split.split(',').map(Number);
  SPLITS[name] = { between, within };
}
const RULES = {
  before: [RECORDED_BEFORE_STOP_RULE.decideConfidence, RECORDED_BEFORE_STOP_RULE.stoppedConfidence, 0.95],
  now: [STOP_RULE.decideConfidence, STOP_RULE.stoppedConfidence, STOP_RULE.endConfidence],
  // the narrower ways to show a stopped row, not taken
  'now, stopped shown at 95 %': [STOP_RULE.decideConfidence, 0.95, STOP_RULE.endConfidence],
  'now, stopped shown at 97 %': [STOP_RULE.decideConfidence, 0.97, STOP_RULE.endConfidence],
};

function seededNormal(seed) {
  const random = seededRandom(seed);
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** The stop before borderline: the look's interval lies in one band. */
const inOneBand = (look) => band(look.low) === band(look.high);
/** The stop with borderline: the bench's own verdict on the look's interval decides (a band, or borderline). */
const margin = MARGIN ?? BORDERLINE_MARGIN;
const decides = (look, n) => measuredVerdict({ n, median: look.estimate, ci: look }, margin) !== 'inconclusive';

function row(
  normal,
  truth,
  { between, within },
  [decide, stopped, end],
  startsThatFit,
  stops = inOneBand,
  rounds = MIN_STEADY_ROUNDS,
) {
  const values = [];
  const starts = [];
  for (let start = 0; start < startsThatFit; start++) {
    const level = between * normal();
    for (let round = 0; round < rounds; round++) {
      values.push(truth * Math.exp(level + within * normal()));
      starts.push(start);
    }
    if (start + 1 >= FIRST_LOOK_STARTS && start + 1 < startsThatFit) {
      const look = analyzeStarts(values, starts, decide).interval;
      if (stops(look, values.length))
        return { interval: analyzeStarts(values, starts, stopped).interval, starts: start + 1 };
    }
  }
  return { interval: analyzeStarts(values, starts, end).interval, starts: startsThatFit, values, startOf: starts };
}

let seed = 1;
if (MARGIN === null) {
  console.log(`${TRIALS} seeded rows per cell: coverage of the reported interval (mean starts used)`);
  console.log('| split | rule | starts that fit | 1.2× | 1.5× (edge) | 1.8× |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: |');
  for (const [name, split] of Object.entries(SPLITS))
    for (const [ruleName, rule] of Object.entries(RULES))
      for (const startsThatFit of [4, 6, 8, MAX_STARTS]) {
        const cells = [1.2, 1.5, 1.8].map((truth) => {
          const normal = seededNormal(seed++);
          let covered = 0;
          let used = 0;
          for (let trial = 0; trial < TRIALS; trial++) {
            const { interval, starts } = row(normal, truth, split, rule, startsThatFit);
            if (interval.low <= truth && truth <= interval.high) covered++;
            used += starts;
          }
          return `${((100 * covered) / TRIALS).toFixed(1)} % (${(used / TRIALS).toFixed(1)})`;
        });
        console.log(`| ${name} | ${ruleName} | ${startsThatFit} | ${cells.join(' | ')} |`);
      }
}

const NOW = [STOP_RULE.decideConfidence, STOP_RULE.stoppedConfidence, STOP_RULE.endConfidence];
/** Inside the bands, on the edge, within the margin either side, and just beyond it. */
const TRUTHS =
  MARGIN === null ? [1.2, 1.4, 1.45, 1.5, 1.55, 1.6, 1.8] : [1.2, 1.25, 1.3, 1.4, 1.5, 1.54, 1.6, 1.75, 1.8];
const outsideMargin = (truth) => edgeWithin({ low: truth, high: truth }, margin) === null;
console.log('');
console.log(
  `Borderline (±${(100 * margin).toFixed(1)} %) decides too: ${TRIALS} seeded rows per cell, coverage of the reported ` +
    'interval / decided in a band / decided borderline (wrong borderlines: the truth outside the margin) (mean starts used)',
);
console.log(`| split | starts that fit | ${TRUTHS.map((truth) => `${truth}×`).join(' | ')} |`);
console.log(`| --- | ---: | ${TRUTHS.map(() => '---:').join(' | ')} |`);
seed = 1001;
for (const [name, split] of Object.entries(SPLITS))
  for (const startsThatFit of [4, 6, 8, MAX_STARTS]) {
    const cells = TRUTHS.map((truth) => {
      const normal = seededNormal(seed++);
      let covered = 0;
      let used = 0;
      let banded = 0;
      let borderline = 0;
      let wrong = 0;
      for (let trial = 0; trial < TRIALS; trial++) {
        const { interval, starts } = row(normal, truth, split, NOW, startsThatFit, decides);
        if (interval.low <= truth && truth <= interval.high) covered++;
        used += starts;
        const verdict = measuredVerdict(
          { n: starts * MIN_STEADY_ROUNDS, median: interval.estimate, ci: interval },
          margin,
        );
        if (isBorderline(verdict)) {
          borderline++;
          if (outsideMargin(truth)) wrong++;
        } else if (verdict !== 'inconclusive') banded++;
      }
      const share = (count) => `${((100 * count) / TRIALS).toFixed(1)} %`;
      return (
        `${share(covered)} / ${share(banded)} / ${share(borderline)}${wrong ? ` (${wrong} wrong)` : ''} ` +
        `(${(used / TRIALS).toFixed(1)})`
      );
    });
    console.log(`| ${name} | ${startsThatFit} | ${cells.join(' | ')} |`);
  }

if (MARGIN !== null) {
  // the headline: measured on every start the budget makes, no look stops it, judged once at the end level
  const HEADLINE_TRUTHS = [1.4, 1.5, 1.54, 1.6, 1.75];
  const never = () => false;
  console.log('');
  console.log(
    `The headline, judged once at the end, borderline at ±${(100 * margin).toFixed(1)} %: ${TRIALS} seeded rows per ` +
      `cell, coverage at ${100 * STOP_RULE.headlineConfidence} % / decided (a band or borderline) at ` +
      `${100 * STOP_RULE.headlineConfidence} % / decided at ${100 * STOP_RULE.endConfidence} %, the same rows`,
  );
  console.log(`| split | starts | ${HEADLINE_TRUTHS.map((truth) => `${truth}×`).join(' | ')} |`);
  console.log(`| --- | ---: | ${HEADLINE_TRUTHS.map(() => '---:').join(' | ')} |`);
  seed = 5001;
  for (const [name, split] of Object.entries(SPLITS))
    for (const starts of [3, 4, 5, 6, 8]) {
      const cells = HEADLINE_TRUTHS.map((truth) => {
        const normal = seededNormal(seed++);
        let covered = 0;
        const decided = { headline: 0, end: 0 };
        const levels = { headline: STOP_RULE.headlineConfidence, end: STOP_RULE.endConfidence };
        for (let trial = 0; trial < TRIALS; trial++) {
          // no look stops the headline: one row of `starts` starts, its interval taken at each level
          const shown = row(normal, truth, split, [0, 0, levels.headline], starts, never, HEADLINE_ROUNDS);
          if (shown.interval.low <= truth && truth <= shown.interval.high) covered++;
          for (const [key, level] of Object.entries(levels)) {
            const interval = analyzeStarts(shown.values, shown.startOf, level).interval;
            const n = starts * HEADLINE_ROUNDS;
            if (measuredVerdict({ n, median: interval.estimate, ci: interval }, margin) !== 'inconclusive')
              decided[key]++;
          }
        }
        const share = (count) => `${((100 * count) / TRIALS).toFixed(1)} %`;
        return `${share(covered)} / ${share(decided.headline)} / ${share(decided.end)}`;
      });
      console.log(`| ${name} | ${starts} | ${cells.join(' | ')} |`);
    }
}
