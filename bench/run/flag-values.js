// @ts-check
// The value of one flag, checked: whole numbers, seconds, rates, names from a list, CPU lists. Each refusal is one line
// that names the flag and what it takes.
import { availableParallelism } from 'node:os';
import { UsageError } from '../errors.js';

const MAX_RATE = 1_000_000;
const MAX_DURATION_SEC = 3600;

/**
 * node:util's messages, cut to one line that names the flag.
 * @param {NodeJS.ErrnoException} error
 */
export function describeParseError(error) {
  const flag = /'(?:-\w, )?(--?[^' ]+)/.exec(error.message)?.[1] ?? '';
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown flag ${flag}; see --help`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/argument missing/.test(error.message)) return `${flag} needs a value; see --help`;
      if (/ambiguous/.test(error.message))
        return `${flag} needs a value; write one that starts with "-" as ${flag}=VALUE`;
      return `${flag} takes no value; see --help`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${/'([^']*)'/.exec(error.message)?.[1] ?? ''}; flags start with --; see --help`;
    default:
      return error.message.split('\n')[0];
  }
}

/** @param {string} flag @param {string} text */
export function parseNonEmpty(flag, text) {
  if (text.trim() === '') throw new UsageError(`${flag} needs a value; see --help`);
  return text;
}

/**
 * @param {string} flag @param {string | undefined} text @param {string[]} known
 * @returns {string[]} the chosen names in the order of `known`
 */
export function parseList(flag, text, known) {
  if (text === undefined) return [...known];
  const names = text.split(',').map((name) => name.trim());
  const unknown = names.find((name) => !known.includes(name));
  if (unknown !== undefined) {
    throw new UsageError(
      `${flag}: ${unknown === '' ? 'empty name' : `unknown name "${unknown}"`}; use a comma-separated subset of ${known.join(',')}`,
    );
  }
  return known.filter((name) => names.includes(name));
}

/** @param {string} flag @param {string} text @param {string[]} choices */
export function parseChoice(flag, text, choices) {
  if (!choices.includes(text))
    throw new UsageError(`${flag}: unknown value "${text}"; use one of ${choices.join(', ')}`);
  return text;
}

/** @param {string} flag @param {string} text @param {number} min @param {number} max */
export function parseInteger(flag, text, min, max) {
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max))
    throw new UsageError(`${flag}: "${text}" is not a whole number from ${min} to ${max}`);
  return value;
}

/**
 * A gate's threshold: a percentage from 0 up to (not including) 100, with or without its %.
 * @param {string} flag @param {string} text
 * @returns {number} as a fraction: 0.05 for 5
 */
export function parseSlowerPercent(flag, text) {
  const value = /^\d+(\.\d+)?%?$/.test(text.trim()) ? Number(text.trim().replace(/%$/, '')) : NaN;
  if (!(value >= 0 && value < 100))
    throw new UsageError(`${flag}: "${text}" is not a percentage from 0 to 100; e.g. ${flag} 5`);
  return value / 100;
}

/** @param {string} flag @param {string} text @param {boolean} zeroAllowed */
export function parseSeconds(flag, text, zeroAllowed) {
  const value = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!(value <= MAX_DURATION_SEC && (zeroAllowed ? value >= 0 : value > 0))) {
    throw new UsageError(
      `${flag}: "${text}" is not a number of seconds ${zeroAllowed ? 'from 0' : 'above 0'} to ${MAX_DURATION_SEC}`,
    );
  }
  return value;
}

/** @param {string} text @param {'--rates' | '--rate'} flag @returns {number[]} ascending, each once */
export function parseRates(text, flag) {
  const items = flag === '--rate' ? [text] : text.split(',');
  const rates = items.map((item) => {
    const value = /^\d+(\.\d+)?$/.test(item.trim()) ? Number(item) : NaN;
    if (!(value > 0 && value <= MAX_RATE))
      throw new UsageError(
        `${flag}: "${item}" is not a rate in req/s above 0 and up to ${MAX_RATE}; e.g. ${flag === '--rate' ? '--rate 300' : '--rates 500,1000,2000'}`,
      );
    return value;
  });
  return [...new Set(rates)].sort((a, b) => a - b);
}

const CPU_LIST = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;

/** @param {string} text */
function parseCpus(text) {
  const [server, generator, ...rest] = text.split(':');
  if (rest.length || !CPU_LIST.test(server ?? '') || !CPU_LIST.test(generator ?? '')) {
    throw new UsageError(`--cpus: "${text}" is not SERVER:GENERATOR taskset CPU lists, e.g. 0:1 or 0-2:3`);
  }
  const count = availableParallelism();
  const serverCpus = expandCpuList(server);
  const generatorCpus = expandCpuList(generator);
  const missing = [...serverCpus, ...generatorCpus].find((cpu) => cpu >= count);
  if (missing !== undefined)
    throw new UsageError(`--cpus: CPU ${missing} does not exist; this machine has CPUs 0-${count - 1}`);
  if (serverCpus.some((cpu) => generatorCpus.includes(cpu)))
    throw new UsageError(`--cpus: "${text}" gives server and generator the same CPU`);
  return { server, generator };
}

/** @param {string} list */
function expandCpuList(list) {
  return list.split(',').flatMap((part) => {
    const [from, to = from] = part.split('-').map(Number);
    // taskset refuses a backwards range only once a server is starting: say it here, as a flag error
    if (from > to) throw new UsageError(`--cpus: range "${part}" runs backwards; write it low-high, e.g. 0-2:3`);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

/**
 * Pinned wherever the machine allows: every server then runs on the same CPU, so the two halves of a pair meet the same
 * (virtual) hardware; unpinned, the scheduler moves servers and generator between vCPUs that the host slows at
 * different moments, and a round's two runs stop correlating (docs/calibration.md, "How the defaults were chosen").
 * @param {{ pin?: boolean, 'no-pin'?: boolean, cpus?: string }} values
 */
export function parsePinning(values) {
  if (values['no-pin'] && (values.pin || values.cpus !== undefined))
    throw new UsageError(`--no-pin contradicts ${values.pin ? '--pin' : '--cpus'}; give one`);
  if (values.cpus !== undefined) return parseCpus(values.cpus);
  if (values['no-pin']) return null;
  if (!values.pin && availableParallelism() < 2) return null;
  return defaultCpus();
}

function defaultCpus() {
  const count = availableParallelism();
  if (count < 2) throw new UsageError(`--pin: this machine has ${count} CPU; pinning needs at least 2`);
  const last = count - 1;
  return { server: last === 1 ? '0' : `0-${last - 1}`, generator: String(last) };
}
