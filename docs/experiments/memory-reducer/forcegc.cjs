const v8 = require('node:v8');
const vm = require('node:vm');
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
setTimeout(() => {
  const t = Date.now();
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  console.error('forced last-resort gc', Date.now() - t, 'ms');
}, 6000).unref();
