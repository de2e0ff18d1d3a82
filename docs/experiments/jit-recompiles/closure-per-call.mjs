// A request handler that makes its callbacks per call (as class-validator, rxjs pipes and Nest's interceptors do), and
// calls them through one shared helper, so they are optimized on their own rather than inlined into the handler.
// Run: node --expose-gc --trace-opt closure-per-call.mjs [keep]   ("keep": one instance of each stays reachable)
const keep = process.argv[2] === 'keep';
const kept = [];
function each(items, fn) {
  let n = 0;
  for (let i = 0; i < items.length; i++) n += fn(items[i], i);
  return n;
}
const items = Array.from({ length: 20 }, (_, i) => ({ i, name: `f${i}` }));
function handle(object, value) {
  const a = (item, i) => (item.name.length + i + value) & 7;
  const b = (item) => (object.page === item.i ? 1 : 0);
  const c = (item, i) => ({ targetName: object.constructor.name, property: item.name, value: i }).property.length;
  if (keep && kept.length === 0) kept.push(a, b, c);
  return each(items, a) + each(items, b) + each(items, c);
}
class Query {
  constructor(p) {
    this.page = p;
  }
}
let sink = 0;
for (let cycle = 0; cycle < 6; cycle++) {
  console.log(`=== requests ${cycle}`);
  for (let i = 0; i < 100_000; i++) sink += handle(new Query(i & 31), i);
  await new Promise((r) => setTimeout(r, 20));
  globalThis.gc();
  console.log('=== full GC');
}
console.log('sink', sink);
