// How a fresh process's new space grows under allocation, with V8's default sizing and pre-sized:
//   for f in '' --min-semi-space-size=16 --semi-space-growth-factor=8; do NODE26 $f presize.mjs; done
// Prints the flags and the new space's size in MiB at start and after each of six allocation steps.
import v8 from 'node:v8';

const newSpaceMiB = () =>
  (v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size / 2 ** 20).toFixed(1);
const sizes = [newSpaceMiB()];
let kept = [];
for (let step = 0; step < 6; step++) {
  for (let i = 0; i < 2e5; i++) {
    kept.push({ a: i, b: `x${i}` });
    if (kept.length > 1000) kept = [];
  }
  sizes.push(newSpaceMiB());
}
console.log(process.execArgv.join(' ') || '(defaults)', sizes.join(' '));
