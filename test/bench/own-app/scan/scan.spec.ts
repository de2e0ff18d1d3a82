import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { scanApp, type CodeFinding } from '../../../../bench/own-app/scan/scan.js';
import { ROOT } from '../../support/run-node.js';

const EXAMPLE = join(ROOT, 'examples', 'express-only-api', 'src');
/** Named from the app's root, the folder of its package.json, wherever the bench runs. */
const at = (file: string, line: number) => `src/${file}:${line}`;
const summary = (findings: CodeFinding[]) =>
  findings.map((f) => `${f.kind} ${f.rule} @ ${f.file}:${f.line} in ${f.handler ?? '-'}`).sort();

/** A controller as an Express-first team writes it; compiled by the test the way tsc compiles an app. */
const CONTROLLER = `import { Controller, Get, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import type { Request, Response } from 'express';

@Controller('c')
export class CardsController {
  @Get(':id')
  card(@Req() req: Request, @Res() res: Response) {
    const agent = req.get('user-agent');
    res.status(200).json({ agent });
  }

  @Post('upload')
  @UseInterceptors(FileInterceptor('scan'))
  upload() {
    return { ok: true };
  }

  @Get('fine')
  fine(@Res({ passthrough: true }) res: Response) {
    res.status(201);
    return { ok: true };
  }
}
`;

describe('scanApp on TypeScript sources given as they are', () => {
  it('finds every place examples/express-only-api leans on Express, with its line and handler', async () => {
    const scan = await scanApp({
      moduleFile: join(EXAMPLE, 'app.module.ts'),
      setupFile: join(EXAMPLE, 'setup.ts'),
      appDir: join(EXAMPLE, '..'),
    });
    expect(scan.skipped).toBeNull();
    expect(scan.root).toBe(join(EXAMPLE, '..'));
    expect(summary(scan.findings)).toEqual(
      [
        `plugin app.use(cookie-parser) @ ${at('setup.ts', 6)} in -`,
        `plugin req.cookies @ ${at('account/account.controller.ts', 13)} in AccountController.preferences`,
        `plugin res.cookie @ ${at('account/account.controller.ts', 18)} in AccountController.login`,
        `breaks req.get @ ${at('account/account.controller.ts', 24)} in AccountController.client`,
        `breaks req.user = … in middleware @ ${at('account/auth.middleware.ts', 9)} in AuthMiddleware.use`,
        `plugin FileInterceptor('document') @ ${at('files/files.controller.ts', 12)} in FilesController.upload`,
        `ifRemoved import @nestjs/platform-express @ ${at('files/files.controller.ts', 2)} in -`,
        `ifRemoved import express (types) @ ${at('account/account.controller.ts', 2)} in -`,
        `ifRemoved import express (types) @ ${at('account/auth.middleware.ts', 2)} in -`,
        `ifRemoved import express (types) @ ${at('notes/notes.controller.ts', 2)} in -`,
        `differs app.listen() without a host @ ${at('main.ts', 8)} in -`,
        `differs @Res() without passthrough @ ${at('notes/notes.controller.ts', 20)} in NotesController.latest`,
        `breaks res.redirect(status, url) @ ${at('notes/notes.controller.ts', 21)} in NotesController.latest`,
        `differs @Res() without passthrough @ ${at('notes/notes.controller.ts', 25)} in NotesController.card`,
        `breaks res.json @ ${at('notes/notes.controller.ts', 27)} in NotesController.card`,
      ].sort(),
    );
    expect(scan.findings.find((f) => f.rule.startsWith('FileInterceptor'))?.files).toEqual([
      { field: 'document', count: 1 },
    ]);
    expect(scan.cookies?.sort()).toEqual(['session', 'theme']);
    for (const finding of scan.findings) expect(finding.fix.length).toBeGreaterThan(10);
  });

  it('names files from the app’s root whatever folder the bench runs in, and a setup module outside it in full', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'scan-setup-'));
    const cwd = process.cwd();
    try {
      writeFileSync(join(outside, 'bench.setup.mjs'), "export function configure(app) { app.enable('etag'); }\n");
      process.chdir(tmpdir());
      const scan = await scanApp({
        moduleFile: join(EXAMPLE, 'app.module.ts'),
        setupFile: join(outside, 'bench.setup.mjs'),
        appDir: join(EXAMPLE, '..'),
      });
      expect(scan.files).toContain('src/main.ts');
      expect(scan.files).toContain(join(outside, 'bench.setup.mjs'));
      expect(scan.findings.find((f) => f.rule === 'app.enable()')?.file).toBe(join(outside, 'bench.setup.mjs'));
    } finally {
      process.chdir(cwd);
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('calls type-only imports of express "only if you remove the Express platform", and leaves a passthrough @Res() that only sets the status alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scan-'));
    try {
      writeFileSync(join(dir, 'cards.controller.ts'), CONTROLLER);
      const scan = await scanApp({ moduleFile: join(dir, 'cards.controller.ts'), setupFile: null, appDir: dir });
      expect(scan.findings.map((f) => f.rule).sort()).toEqual(
        [
          '@Res() without passthrough',
          "FileInterceptor('scan')",
          'import @nestjs/platform-express',
          'import express (types)',
          'req.get',
          'res.json',
        ].sort(),
      );
      const imports = scan.findings.filter((f) => f.rule.startsWith('import '));
      expect(imports.map((f) => f.kind)).toEqual(['ifRemoved', 'ifRemoved']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('scanApp on compiled JavaScript', () => {
  let dir: string;
  const compile = (sourceMap: boolean) => {
    const out = ts.transpileModule(CONTROLLER, {
      fileName: join(dir, 'src', 'cards.controller.ts'),
      compilerOptions: {
        module: ts.ModuleKind.NodeNext,
        target: ts.ScriptTarget.ES2023,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        sourceMap,
      },
    });
    writeFileSync(join(dir, 'cards.controller.js'), out.outputText);
    if (out.sourceMapText) writeFileSync(join(dir, 'cards.controller.js.map'), out.sourceMapText);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scan-compiled-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("reads tsc's __param(i, Res()) decorators when no source map leads to the TypeScript", async () => {
    compile(false);
    const scan = await scanApp({ moduleFile: join(dir, 'cards.controller.js'), setupFile: null, appDir: dir });
    expect(scan.fromSourceMaps).toBe(0);
    const byRule = Object.fromEntries(scan.findings.map((f) => [f.rule, f]));
    expect(byRule['req.get']).toMatchObject({ kind: 'breaks', handler: 'CardsController.card' });
    expect(byRule['res.json']).toMatchObject({ kind: 'breaks', handler: 'CardsController.card' });
    expect(byRule['res.json'].file).toMatch(/cards\.controller\.js$/);
    expect(byRule["FileInterceptor('scan')"]).toMatchObject({
      handler: 'CardsController.upload',
      files: [{ field: 'scan', count: 1 }],
    });
  });

  it('reports the TypeScript file and line a source map names', async () => {
    compile(true);
    // as tsc lays an app out: dist/ beside src/, the map naming the source relative to itself
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'cards.controller.ts'), CONTROLLER);
    const map = JSON.parse(readFileSync(join(dir, 'cards.controller.js.map'), 'utf8'));
    writeFileSync(
      join(dir, 'cards.controller.js.map'),
      JSON.stringify({ ...map, sources: ['src/cards.controller.ts'] }),
    );
    const js = join(dir, 'cards.controller.js');
    const scan = await scanApp({ moduleFile: js, setupFile: null, appDir: dir });
    expect(scan.fromSourceMaps).toBe(1);
    const json = scan.findings.find((f) => f.rule === 'res.json');
    expect(json?.file).toMatch(/src\/cards\.controller\.ts$/);
    expect(json?.line).toBe(10);
    expect(json?.code).toBe('res.status(200).json({ agent });');
  });
});

describe('the main file of a module in a folder of its own', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scan-main-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is found in the folders above the module up to the app’s root: its listen() without a host is named', async () => {
    writeFileSync(join(dir, 'package.json'), '{}');
    mkdirSync(join(dir, 'dist', 'app'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'app', 'app.module.js'), 'export class AppModule {}\n');
    writeFileSync(join(dir, 'dist', 'main.js'), 'const app = await create();\nawait app.listen(3000);\n');
    const scan = await scanApp({
      moduleFile: join(dir, 'dist', 'app', 'app.module.js'),
      setupFile: null,
      appDir: join(dir, 'dist', 'app'),
    });
    expect(scan.findings.map((f) => `${f.rule} @ ${f.file}:${f.line}`)).toEqual([
      'app.listen() without a host @ dist/main.js:2',
    ]);
  });
});
