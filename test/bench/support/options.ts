// The options a command line gives against a config, as bin/bench.js resolves them: parsed once, then resolved.
import { BUILTIN_CONFIG } from '../../../bench/model/builtin-config.js';
import type { Config } from '../../../bench/model/config.js';
import { type Options, parseCommandLine, resolveOptions } from '../../../bench/run/options.js';

export function parseOptions(argv: string[], config: Config = BUILTIN_CONFIG): Options {
  return resolveOptions(parseCommandLine(argv), config);
}
