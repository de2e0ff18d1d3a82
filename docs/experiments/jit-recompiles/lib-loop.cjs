// class-validator or class-transformer alone on the catalog query DTO, in cycles of calls each ended by a full GC.
// Run from the repo root after npm run build:
//   node --expose-gc --trace-opt --trace-deopt docs/experiments/jit-recompiles/lib-loop.cjs validator|transformer CYCLES CALLS
// KEEP_EXECUTOR=1 keeps one class-validator ValidationExecutor reachable throughout.
require('reflect-metadata');
const { Validator } = require('class-validator');
const { plainToInstance } = require('class-transformer');
const { CatalogPageQueryDto } = require(`${process.cwd()}/dist/catalog/dto/catalog-page-query.dto.js`);
const [lib = 'validator', cycles = 8, calls = 20000] = process.argv.slice(2);
const validator = new Validator();
const { ValidationExecutor } = require('class-validator/cjs/validation/ValidationExecutor');
const keptExecutor = process.env.KEEP_EXECUTOR
  ? new ValidationExecutor(validator, { whitelist: true, forbidNonWhitelisted: true })
  : null;
const dto = plainToInstance(CatalogPageQueryDto, { page: '3', pageSize: '50' });
let sink = 0;
for (let cycle = 0; cycle < Number(cycles); cycle++) {
  console.log(`=== cycle ${cycle}`);
  for (let i = 0; i < Number(calls); i++) {
    if (lib === 'validator')
      sink += validator.validateSync(dto, { whitelist: true, forbidNonWhitelisted: true }).length;
    else sink += plainToInstance(CatalogPageQueryDto, { page: String(i % 9), pageSize: '50' }).page;
  }
  globalThis.gc();
}
console.log('=== sink', sink, keptExecutor !== null);
