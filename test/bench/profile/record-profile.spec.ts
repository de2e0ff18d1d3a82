import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dropPartialLastLine } from '../../../bench/profile/record-profile.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'profile-record-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (text: string) => {
  const file = path.join(dir, 'server.v8.log');
  writeFileSync(file, text);
  return file;
};

describe('a profile log written as the process exited', () => {
  it('loses the tick cut mid-line and keeps every whole line', async () => {
    const file = write('v8-version,12\ncode-creation,Script,0,5,x\ntick,0x1,7,0,0x2\ntick,0x3,8,');
    await dropPartialLastLine(file);
    expect(readFileSync(file, 'utf8')).toBe('v8-version,12\ncode-creation,Script,0,5,x\ntick,0x1,7,0,0x2\n');
  });

  it('is left as it is when its last line is whole', async () => {
    const file = write('v8-version,12\ntick,0x1,7,0,0x2\n');
    await dropPartialLastLine(file);
    expect(readFileSync(file, 'utf8')).toBe('v8-version,12\ntick,0x1,7,0,0x2\n');
  });

  it('is refused when it is missing or holds no whole line', async () => {
    await expect(dropPartialLastLine(path.join(dir, 'never-written.v8.log'))).rejects.toThrow(/is missing/);
    await expect(dropPartialLastLine(write('v8-vers'))).rejects.toThrow(/no complete line/);
    await expect(dropPartialLastLine(write(''))).rejects.toThrow(/no complete line/);
  });
});
