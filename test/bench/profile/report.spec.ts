import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  renderProfilesHtml,
  renderProfilesMarkdown,
  type ProfileRecord,
} from '../../../bench/profile/profile-targets.js';

// Records from a real `profileTargets` run of nest-express and nest-fastify on hello (top functions cut to 15, files
// under <profiles>), plus a failed raw-express record.
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'hello-records.json');
const REPORT_DIR = '/results/run-1';
const profiles: ProfileRecord[] = JSON.parse(
  readFileSync(FIXTURE, 'utf8').split('<profiles>').join(`${REPORT_DIR}/profiles`),
);
const [express, fastify] = profiles;

describe('the profiles section of report.md', () => {
  const markdown = renderProfilesMarkdown(profiles, REPORT_DIR);

  it('puts Express and Fastify side by side for each scenario', () => {
    expect(markdown).toContain('### hello — node (20.20.2)');
    expect(markdown).toContain(
      '| group | nest-express self | nest-express + native called | nest-fastify self | nest-fastify + native called |',
    );
    expect(markdown).toContain('| # | nest-express | self | nest-fastify | self |');
  });

  it('links each flame graph relative to the report', () => {
    expect(markdown).toContain('[flame graph](profiles/nest-express-hello.html)');
    expect(markdown).toContain('[node --prof-process](profiles/nest-fastify-hello.txt)');
  });

  it("states each profile's unaccounted share and says why one failed", () => {
    expect(markdown).toMatch(/nest-express\*\*: .* unaccounted \d+\.\d %/);
    expect(markdown).toContain('- **raw-express**: failed: raw-express ended with exit code 1');
  });

  it("shows each group's share and the top 15 functions by self time", () => {
    const share = (record: ProfileRecord, id: string) =>
      `${((record.summary?.groups.find((g) => g.id === id)?.selfShare ?? 0) * 100).toFixed(1)} %`;
    expect(markdown).toContain(`| GC | ${share(express, 'gc')} |`);
    const rows = markdown.split('\n').filter((line) => /^\| \d+ \| /.test(line));
    expect(rows).toHaveLength(15);
    expect(rows[0]).toContain(`\`${fastify.summary?.topFunctions[0].name.slice(0, 60)}`);
  });
});

describe('the profiles section of report.html', () => {
  const html = renderProfilesHtml(profiles, REPORT_DIR);

  it('links each flame graph relative to the report', () => {
    expect(html).toContain('<a href="profiles/nest-express-hello.html">flame graph</a>');
    expect(html).toContain('<a href="profiles/nest-fastify-hello.html">flame graph</a>');
  });

  it('escapes C++ names', () => {
    expect(html).not.toMatch(
      /<(?!\/?(section|style|h2|h3|p|ul|li|strong|a|span|table|thead|tbody|col|tr|th|td|div|i|em|code)\b)[a-z]/i,
    );
    expect(html).toContain('&lt;');
  });

  it('has the same group and top-functions tables as report.md, one of each per scenario', () => {
    expect(html.match(/<th>group<\/th>/g)).toHaveLength(1);
    expect(html.match(/Top 15 functions by self time/g)).toHaveLength(1);
    expect(html).toContain('<th>#</th><th>nest-express</th><th>self</th><th>nest-fastify</th><th>self</th>');
    const firstRow = html.split('\n').find((line) => line.startsWith('<tr><td class="right">1</td>'))!;
    expect(firstRow).toContain(`<code>${fastify.summary?.topFunctions[0].name.slice(0, 60)}`);
  });
});
