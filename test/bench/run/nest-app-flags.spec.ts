import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../../bench/errors.js';
import { nestAppFlags } from '../../../bench/run/nest-app-flags.js';

function thrownBy(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('nothing was thrown');
}

describe('--sign-in, the password sign-in as a flag', () => {
  it('reads METHOD /path=JSON, the credentials at any depth of the body', () => {
    const flags = nestAppFlags({
      'nest-app': 'dist/app.module.js',
      'sign-in': 'post /api/auth/login={"user":{"email":"a@b.c","password":"pw"}}',
    });
    expect(flags?.signIn).toEqual({
      method: 'POST',
      url: '/api/auth/login',
      value: { user: { email: 'a@b.c', password: 'pw' } },
    });
  });

  it('reads the body from a file after @', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-sign-in-flag-'));
    try {
      const file = join(dir, 'login.json');
      writeFileSync(file, '{"query":"mutation { login(email: \\"a@b.c\\", password: \\"pw\\") { token } }"}');
      const flags = nestAppFlags({ 'nest-app': 'dist/app.module.js', 'sign-in': `POST /graphql=@${file}` });
      expect(flags?.signIn?.value).toEqual({ query: 'mutation { login(email: "a@b.c", password: "pw") { token } }' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is null without the flag', () => {
    expect(nestAppFlags({ 'nest-app': 'dist/app.module.js' })?.signIn).toBeNull();
  });

  it.each([
    ['POST /api/auth/login', /^--sign-in: "POST \/api\/auth\/login" is not METHOD \/path=JSON; e\.g\. --sign-in 'POST/],
    ['POST /api/auth/login={oops', /^--sign-in POST \/api\/auth\/login: not JSON/],
    ['POST /login=@/no/such/file.json', /^--sign-in POST \/login: cannot read \/no\/such\/file\.json/],
  ])('refuses %j with one line naming --sign-in', (given, message) => {
    expect(thrownBy(() => nestAppFlags({ 'nest-app': 'dist/app.module.js', 'sign-in': given }))).toMatch(message);
  });

  it('goes with --nest-main or --nest-app', () => {
    expect(thrownBy(() => nestAppFlags({ 'sign-in': 'POST /login={}' }))).toBe(
      '--sign-in goes with --nest-main dist/main.js or --nest-app FILE; see --help',
    );
  });
});
