import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanApp, type CodeFinding } from '../../../bench/own-app/scan.js';

/** A guard and a controller with the request and reply habits a switch changes, and their look-alikes that it does not. */
const CONTROLLER = `import { Controller, Get, Req, Res } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { Request, Response } from 'express';

export class ProxyThrottlerGuard extends ThrottlerGuard {
  protected async getTracker(req: Record<string, any>): Promise<string> {
    return req.ips.length ? req.ips[0] : req.ip;
  }
}

@Controller('x')
export class XController {
  @Get('ip')
  ip(@Req() req: Request) {
    return { ip: req.ip };
  }

  @Get('moved')
  moved(@Res() res: Response) {
    const agent = res.req.headers['user-agent'];
    res.status(301).redirect('/x/ip');
  }

  @Get('found')
  found(@Res() res: Response) {
    res.redirect('/x/ip');
  }
}
`;

/** express used as a value outside app.use: Express's own code runs on Fastify's request. */
const ROUTER = `import * as express from 'express';
import type { Request } from 'express';

export const router = express.Router();
export function handle(req: Request) {
  return req.headers;
}
`;

describe('the scan of handlers, guards and imports', () => {
  let dir: string;
  const scan = async (files: Record<string, string>, entry: string) => {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return (await scanApp({ moduleFile: join(dir, entry), setupFile: null, appDir: dir })).findings;
  };
  const at = (findings: CodeFinding[]) => findings.map((f) => `${f.kind} ${f.rule} :${f.line}`).sort();

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scan-file-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds req.ips in a throttler’s getTracker, res.req, and redirect(url) after status(), and nothing else', async () => {
    const findings = await scan({ 'x.controller.ts': CONTROLLER }, 'x.controller.ts');
    expect(at(findings)).toEqual(
      [
        'breaks req.ips :7',
        'breaks res.req :20',
        'differs res.status(…).redirect(url) :21',
        'differs @Res() without passthrough :19',
        'differs @Res() without passthrough :25',
        'ifRemoved import express (types) :3',
      ].sort(),
    );
    const ips = findings.find((f) => f.rule === 'req.ips');
    expect(ips?.handler).toBe('ProxyThrottlerGuard.getTracker');
    expect(ips?.fix).toMatch(/trustProxy/);
    expect(findings.find((f) => f.rule.includes('redirect'))?.onFastify).toMatch(/302 whatever status was set/);
  });

  it('calls an import used as a value a difference, and one used only in types information', async () => {
    const findings = await scan({ 'router.ts': ROUTER }, 'router.ts');
    expect(at(findings)).toEqual(['breaks import express :1', 'ifRemoved import express (types) :2']);
  });
});
