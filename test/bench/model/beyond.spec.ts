import { createHash } from 'node:crypto';
import { SCENARIO_SETS } from '../../../bench/model/beyond.js';
import { payloadText } from '../../../bench/model/payloads.js';
import { requestFor, scenarioByName } from '../../../bench/model/scenarios.js';
import { parseOptions } from '../support/options.js';
import { blockKey } from '../../../bench/model/keys.js';
import { ownLoads } from '../../../bench/run/runtime-plan.js';

const digest = (text: string) => createHash('sha256').update(text).digest('hex');
const describe_ = (text: string) => ({ bytes: Buffer.byteLength(text), sha256: digest(text) });

/** The file part of the multipart body the scenario sends. */
function uploadedContent(name: string): { filename: string; content: string } {
  const body = scenarioByName(name).body as string;
  const filename = /filename="([^"]+)"/.exec(body)![1];
  const content = body.slice(body.indexOf('\r\n\r\n') + 4, body.lastIndexOf('\r\n--'));
  return { filename, content };
}

describe('the beyond profiles refuse a wrong answer before anything is timed', () => {
  it('a JSON body answered with its own size and digest passes; a wrong digest is refused', () => {
    const scenario = scenarioByName('body-64k');
    const body = scenario.body as string;
    expect(body.length).toBe(64 * 1024);
    expect(scenario.checkBody(JSON.stringify(describe_(body)))).toBeNull();
    const wrong = { ...describe_(body), sha256: digest('something else') };
    expect(scenario.checkBody(JSON.stringify(wrong))).toMatch(/digest .* is not the one sent/);
  });

  it('a truncated upload is refused, naming the bytes sent and received', () => {
    const { filename, content } = uploadedContent('upload-1m');
    expect(content.length).toBe(1024 * 1024);
    const scenario = scenarioByName('upload-1m');
    expect(scenario.checkBody(JSON.stringify({ filename, ...describe_(content) }))).toBeNull();
    const truncated = content.slice(0, -1);
    expect(scenario.checkBody(JSON.stringify({ filename, ...describe_(truncated) }))).toMatch(
      /1048576 bytes sent, the app received 1048575/,
    );
  });

  it('an upload answered under another file name is refused', () => {
    const { content } = uploadedContent('upload-1m');
    const answer = { filename: 'other.bin', ...describe_(content) };
    expect(scenarioByName('upload-1m').checkBody(JSON.stringify(answer))).toMatch(/filename/);
  });

  it('a static file must arrive whole and unchanged', () => {
    const scenario = scenarioByName('static-1m');
    const file = payloadText(1024 * 1024, 'static-1m.txt');
    expect(scenario.checkBody(file)).toBeNull();
    expect(scenario.checkBody(file.slice(0, -10))).toMatch(/expected 1048576 bytes/);
    expect(scenario.checkBody(`x${file.slice(1)}`)).toMatch(/differ/);
  });

  it('a conditional request must be answered 304 with no body', () => {
    const scenario = scenarioByName('static-304');
    expect(scenario.status).toBe(304);
    expect(scenario.headers['if-modified-since']).toBe('Thu, 01 Jan 2026 00:00:00 GMT');
    expect(scenario.checkBody('')).toBeNull();
    expect(scenario.checkBody('x')).not.toBeNull();
  });

  it('an event stream must carry every event in order', () => {
    const scenario = scenarioByName('sse');
    const events = (ids: number[]) => ids.map((i) => `id: ${i}\ndata: {"sequence":${i}}\n\n`).join('');
    const all = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(scenario.checkBody(events(all))).toBeNull();
    expect(scenario.checkBody(events(all.slice(0, 99)))).toMatch(/expected 100 events, got 99/);
    expect(scenario.checkBody(events([2, 1, ...all.slice(2)]))).toMatch(/event 1/);
  });
});

describe('--scenarios beyond', () => {
  it('names every profile, and each profile runs by its own name', () => {
    expect(parseOptions(['--scenarios', 'beyond']).scenarios).toEqual(SCENARIO_SETS.beyond);
    expect(parseOptions(['--scenarios', 'hello,upload-20m']).scenarios).toEqual(['hello', 'upload-20m']);
  });

  it('leaves the default run and the bare run as they were', () => {
    expect(parseOptions([]).scenarios).toEqual(['hello', 'catalog', 'purchases']);
    const bare = parseOptions(['--stack', 'bare']).scenarios;
    expect(bare.filter((name) => SCENARIO_SETS.beyond.includes(name))).toEqual([]);
    expect(bare).toContain('mix');
  });
});

describe("each profile's own load, resolved when the run is planned", () => {
  const planned = (names: string[], flags: string[]) => {
    const loads = new Map(
      names.map((name) => [
        blockKey({ scenario: name, stack: 'bare' }),
        { scenario: scenarioByName(name), request: requestFor(scenarioByName(name), { token: null }) },
      ]),
    );
    const fitted = ownLoads(loads, parseOptions(flags));
    return Object.fromEntries(names.map((name) => [name, fitted.get(blockKey({ scenario: name, stack: 'bare' }))]));
  };

  it('gives large bodies fewer connections and runs long enough for several answers each', () => {
    expect(planned(['upload-20m', 'stream-10m', 'static-1m'], ['--quick'])).toEqual({
      'upload-20m': { connections: 4, durationSec: 4 },
      'stream-10m': { connections: 2, durationSec: 5 },
      'static-1m': { connections: 4, durationSec: 3 },
    });
  });

  it('keeps a longer --duration, and the idle profiles their thousands of connections whatever --connections says', () => {
    expect(planned(['upload-20m', 'idle-1k', 'idle-4k'], ['--duration', '10', '--connections', '100'])).toEqual({
      'upload-20m': { connections: 4, durationSec: 10 },
      'idle-1k': { connections: 1000, durationSec: 10 },
      'idle-4k': { connections: 4000, durationSec: 10 },
    });
  });

  it("leaves hello and the closing profiles at the flags' connections", () => {
    expect(planned(['hello', 'close-every', 'no-keepalive'], ['--connections', '64'])).toEqual({
      hello: undefined,
      'close-every': { connections: 64, durationSec: 0.25 },
      'no-keepalive': { connections: 64, durationSec: 0.25 },
    });
    expect(scenarioByName('close-every').load).toMatchObject({ requestsPerConnection: 10 });
    expect(scenarioByName('no-keepalive').load).toMatchObject({ requestsPerConnection: 1 });
  });
});
