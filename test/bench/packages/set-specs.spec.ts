import { cellText, ERA_ITEMS, planCells, SPLIT_ITEMS } from '../../../bench/packages/set-specs.js';
import { refusal } from '../support/refusal.js';

const DATE = '2026-11-25T00:00:00Z';
const RUNNING = [{ text: 'node', name: 'node' as const, range: null }];

describe('planCells', () => {
  it('runs every set under every runtime given', () => {
    const runtimes = [
      { text: 'node@22', name: 'node' as const, range: '22' },
      { text: 'node@24', name: 'node' as const, range: '24' },
    ];
    const cells = planCells('nest@10,express@4.21.2', runtimes, { runtimeGiven: true, date: DATE });
    expect(cells.map(cellText)).toEqual([
      'nest@10 on node@22',
      'nest@10 on node@24',
      'express@4.21.2 on node@22',
      'express@4.21.2 on node@24',
    ]);
    expect(cells[2].set).toEqual({ text: 'express@4.21.2', kind: 'express', range: '4.21.2' });
  });

  it('runs an item that names its runtime there alone, even one older than the app supports', () => {
    const [cell] = planCells('nest@7/node@12', RUNNING, { runtimeGiven: false, date: DATE });
    expect(cellText(cell)).toBe('nest@7 on node@12');
    expect(cell.runtime).toEqual({ text: 'node@12', name: 'node', range: '12' });
  });

  it('expands eras and split into their cells, a cell in both once', () => {
    const cells = planCells('eras,split', RUNNING, { runtimeGiven: false, date: DATE });
    expect(cells).toHaveLength(new Set([...ERA_ITEMS, ...SPLIT_ITEMS]).size);
    expect(cells.filter((cell) => cellText(cell) === 'nest@12 on node@24')).toHaveLength(1);
  });

  it('refuses a set it does not know, in one line naming the accepted forms', () => {
    const message = refusal(() => planCells('koa@2', RUNNING, { runtimeGiven: false, date: DATE }));
    expect(message).toMatch(/^--packages: "koa@2" is not a package set; use nest@<major>/);
    expect(message).not.toContain('\n');
  });

  it('refuses a set listed twice, and --runtime beside an item naming its own', () => {
    expect(refusal(() => planCells('nest@10,nest@10', RUNNING, { runtimeGiven: false, date: DATE }))).toBe(
      '--packages: nest@10 on node is listed twice; list it once',
    );
    expect(refusal(() => planCells('nest@7/node@12', RUNNING, { runtimeGiven: true, date: DATE }))).toMatch(
      /names the runtime of its set; drop --runtime/,
    );
  });
});
