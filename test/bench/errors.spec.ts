import { errorLine, parseArgsOrRefuse, UsageError } from '../../bench/errors.js';
import { refusal } from './support/refusal.js';

describe('errorLine', () => {
  it("finds an uncaught exception's line above its stack frames and node's version line", () => {
    const tail = 'starting\nTypeError: request.is is not a function\n    at handler (app.js:3:9)\n\nNode.js v26.1.0\n';
    expect(errorLine(tail)).toBe('TypeError: request.is is not a function');
  });

  it('takes the last such line when the server printed several, and the last line when it printed none', () => {
    expect(errorLine('Error: first\nRangeError: second\n    at x (a.js:1:1)\n')).toBe('RangeError: second');
    expect(errorLine('listening on 3000\nshutting down\n')).toBe('shutting down');
  });

  it('says so when the server printed nothing', () => {
    expect(errorLine('\n\n')).toBe('(no stderr output)');
  });
});

describe('parseArgsOrRefuse', () => {
  const options = { retries: { type: 'string' } } as const;

  it('parses what node:util parseArgs would', () => {
    expect(parseArgsOrRefuse({ args: ['--retries', '3'], options }).values).toEqual({ retries: '3' });
  });

  it('turns its complaint about an unknown flag into a UsageError, so the CLI prints one line and exits 2', () => {
    expect(refusal(() => parseArgsOrRefuse({ args: ['--retry', '3'], options }))).toMatch(/--retry/);
    expect(new UsageError('x').name).toBe('UsageError');
  });
});
