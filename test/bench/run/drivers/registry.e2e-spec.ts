import { generatorVersions, loadDriver } from '../../../../bench/run/drivers/registry.js';

describe('the generators a run records', () => {
  it('names h2load with its version beside the driver when a target speaks HTTP/2, and h2load alone when all do', async () => {
    const wrk = await loadDriver('wrk');
    const [driver, h2load] = await generatorVersions(await wrk.version(), ['http', 'https', 'h2', 'h2c']);
    expect(driver).toMatch(/^wrk \S+$/);
    expect(h2load).toMatch(/^h2load nghttp2\/\d+\.\d+\.\d+/);
    expect(await generatorVersions(await wrk.version(), ['h2c'])).toEqual([h2load]);
  });

  it('names the driver alone when no target speaks HTTP/2', async () => {
    const wrk = await loadDriver('wrk');
    expect(await generatorVersions(await wrk.version(), ['http', 'https'])).toEqual([await wrk.version()]);
  });
});
