import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globals: true,
    root: './',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.spec.ts'],
          exclude: ['test/**/*.e2e-spec.ts'],
          // each worker imports the bench's modules once, not once per spec file, which was most of the suite's time;
          // the unit specs leave no state behind for the next file (none mocks a module), and they stay in forks,
          // where process.chdir works
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.e2e-spec.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
