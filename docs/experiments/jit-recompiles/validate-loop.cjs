// The catalog route's query validation alone (Nest's ValidationPipe as the app configures it), in cycles of calls:
// does V8 throw away and recompile the same optimized functions after every full GC?
// Run from the repo root, after npm run build:
//   node --expose-gc --trace-opt --trace-deopt docs/experiments/jit-recompiles/validate-loop.cjs CYCLES CALLS MODE
// MODE: gc (a full GC after each cycle), nogc (none), gc-keep (a full GC after each cycle, while one object of every
// kind a validation makes stays reachable: the last transformed DTO and the last class-validator error objects).
require('reflect-metadata');
const { ValidationPipe } = require('@nestjs/common');
const { Validator } = require('class-validator');
const { CatalogPageQueryDto } = require(`${process.cwd()}/dist/catalog/dto/catalog-page-query.dto.js`);

const [cycles = 8, calls = 20000, mode = 'gc'] = process.argv.slice(2);
const pipe = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true });
const validator = new Validator();
const metadata = { type: 'query', metatype: CatalogPageQueryDto, data: undefined };
const kept = [];

(async () => {
  for (let cycle = 0; cycle < Number(cycles); cycle++) {
    console.log(`=== cycle ${cycle}`);
    const startedAt = process.hrtime.bigint();
    for (let i = 0; i < Number(calls); i++) {
      const query = await pipe.transform({ page: String(1 + (i % 9)), pageSize: '50' }, metadata);
      if (mode === 'gc-keep' && i === 0) {
        const errors = await validator.validate(query, { whitelist: true, forbidNonWhitelisted: true });
        kept.splice(0, kept.length, query, errors, validator.validateSync(query));
      }
    }
    const validationNs = Number(process.hrtime.bigint() - startedAt);
    if (mode !== 'nogc') globalThis.gc();
    console.log(`=== end ${cycle} ${(validationNs / Number(calls) / 1000).toFixed(2)} µs per validation`);
  }
})();
