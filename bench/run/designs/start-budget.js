// @ts-check
// The verdict's budget over starts: what is left of it, what the next start costs, and which blocks a start measures
// in it. Timings only, never ratios, so no interval pays for what it decides.
import { takesHeadlineStart } from './budget.js';
import { FIRST_LOOK_STARTS, MAX_STARTS } from '../../model/design.js';

/**
 * Whether the budget asks, after this start, which compared blocks are decided: from FIRST_LOOK_STARTS and the starts
 * asked for on.
 * @param {import('../../model/design.js').Design} design @param {number} start 0-based
 */
export function looksAfter(design, start) {
  return design.kind === 'budgeted-starts' && start + 1 >= Math.max(FIRST_LOOK_STARTS, design.starts);
}

/**
 * The blocks a start expects to measure beside its first, in order, each with what the ones before it are expected to
 * leave of the budget (their latest wall seconds).
 * @template {{ key: string }} B
 * @param {B[]} blocks @param {number} leftSec what the start's boot and first block are expected to leave
 * @param {Map<string, number>} blockSec each block's wall seconds on its latest start
 * @param {(block: B, leftSec: number) => boolean} fitsIn
 * @returns {B[]}
 */
export function expectedToFit(blocks, leftSec, blockSec, fitsIn) {
  let left = leftSec;
  return blocks.filter((block) => {
    if (!fitsIn(block, left)) return false;
    left -= blockSec.get(block.key) ?? 0;
    return true;
  });
}

export class StartBudget {
  /** the latest start's boot (the first: its boot and verification) */
  bootSec;
  /** the latest start's priming of the headline */
  primeSec = 0;
  #design;
  #startedAt;
  #blockSec;
  #headlineKey;
  /** the verdict's share: all of the budget until the first start has timed the blocks the rest is kept for */
  #verdictSec;

  /**
   * @param {import('../../model/design.js').Design} design
   * @param {number} firstBootSec the first start's boot and verification, counted in the budget
   * @param {Map<string, number>} blockSec each block's wall seconds on its latest start, as the starts measure them
   * @param {string | null} headlineKey the headline's block, which no look lets go
   */
  constructor(design, firstBootSec, blockSec, headlineKey) {
    this.#design = design;
    this.#startedAt = performance.now() - firstBootSec * 1000;
    this.bootSec = firstBootSec;
    this.#blockSec = blockSec;
    this.#headlineKey = headlineKey;
    this.#verdictSec = design.budgetPerRuntimeSec;
  }

  /** seconds since the first boot */
  spentSec() {
    return (performance.now() - this.#startedAt) / 1000;
  }

  /** the verdict's share of the budget; null: no budget */
  get verdictSec() {
    return this.#verdictSec;
  }

  /** Holds seconds back from the verdict's share for blocks beside it. @param {number} sec */
  holdBack(sec) {
    if (this.#verdictSec !== null) this.#verdictSec -= sec;
  }

  leftSec() {
    return (this.#verdictSec ?? Infinity) - this.spentSec();
  }

  /**
   * A start's boot, its headline's priming and its first block, as the latest start took them.
   * @param {{ key: string }} first the next start's first block
   */
  nextStartSec(first) {
    return this.bootSec + this.primeSec + (this.#blockSec.get(first.key) ?? 0);
  }

  /**
   * Whether a block fits on a later start: its latest wall seconds fit in what is left, and once a look has let decided
   * rows go, a block beside the headline takes none of the headline's later starts (takesHeadlineStart): the headline
   * is the row a run is read for, and the other rows have had the starts a first look needs.
   * @param {number} start 0-based @param {{ key: string }} first the start's first block
   * @returns {(block: { key: string }, leftSec?: number) => boolean}
   */
  fitsOn(start, first) {
    const headlineFirst = looksAfter(this.#design, start - 1) && first.key === this.#headlineKey;
    return (block, left = this.leftSec()) => {
      const blockSec = this.#blockSec.get(block.key) ?? 0;
      if (blockSec > left) return false;
      if (!headlineFirst || block.key === this.#headlineKey) return true;
      const nextStartSec = this.nextStartSec(first);
      return !takesHeadlineStart({ leftSec: left, blockSec, nextStartSec, startsLeft: MAX_STARTS - start - 1 });
    };
  }

  /**
   * The blocks a later start boots and measures: before the first look, all of them, each measured while it fits;
   * after it, the first and those expected to fit from the latest start's times.
   * @template {{ key: string }} B
   * @param {number} start 0-based @param {B[]} ordered the start's blocks, its first first
   * @returns {B[]}
   */
  dueOn(start, ordered) {
    if (!looksAfter(this.#design, start - 1)) return ordered;
    const [first, ...rest] = ordered;
    const left = this.leftSec() - this.nextStartSec(first);
    return [first, ...expectedToFit(rest, left, this.#blockSec, this.fitsOn(start, first))];
  }
}
