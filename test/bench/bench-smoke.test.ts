import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchResults } from '../../bench/results-types.ts';
// The bench is TypeScript run by Node's type stripping: the project's pinned Node 24.
import { NODE, RECEIVER_CLI, ROOT } from '../harness/paths.ts';

const run = promisify(execFile);

async function quickBench(args: string[]): Promise<{ out: string; stem: string }> {
  const out = mkdtempSync(join(tmpdir(), 'reslog-bench-smoke-'));
  await run(NODE, ['bench/run.ts', '--quick', ...args, '--out', out], {
    cwd: ROOT,
    timeout: 150_000,
    killSignal: 'SIGINT',
    maxBuffer: 16 * 1024 * 1024,
  });
  const json = readdirSync(out).find((file) => file.endsWith('.json'));
  if (!json) throw new Error(`no result JSON in ${out}`);
  return { out, stem: join(out, json.replace(/\.json$/, '')) };
}

/**
 * `npm run bench -- --quick` must keep working: every scenario runs end to end at smoke
 * sizes and writes sane results with exact record counts. Speed is never asserted here: the
 * machine may be busy. Runs `node bench/run.ts` directly rather than `npm run bench`, whose
 * clean build would delete dist/ under other test files running in parallel. Scenarios 6
 * (opt-in; ≈ 20 s at smoke sizes, mostly idle) and 7 (opt-in) run as their own `--only 6`
 * and `--only 7` alongside the default scenarios.
 */
describe('npm run bench -- --quick', () => {
  const outs: string[] = [];
  let results: BenchResults;
  let stem: string;
  let long: BenchResults;
  let longStem: string;
  let service: BenchResults;
  let serviceStem: string;

  beforeAll(async () => {
    // The bench loads both packages' builds: reslog's dist/ and reslog-receiver's.
    for (const [built, config] of [
      [join(ROOT, 'dist', 'index.js'), 'tsconfig.build.json'],
      [RECEIVER_CLI, join('src', 'receiver', 'tsconfig.build.json')],
    ] as const) {
      if (existsSync(built)) continue;
      await run(NODE, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config], {
        cwd: ROOT,
      });
    }
    const [all, six, seven] = await Promise.all([
      quickBench([]),
      quickBench(['--only', '6']),
      quickBench(['--only', '7']),
    ]);
    outs.push(all.out, six.out, seven.out);
    serviceStem = seven.stem;
    service = JSON.parse(readFileSync(`${serviceStem}.json`, 'utf8')) as BenchResults;
    stem = all.stem;
    results = JSON.parse(readFileSync(`${stem}.json`, 'utf8')) as BenchResults;
    longStem = six.stem;
    long = JSON.parse(readFileSync(`${longStem}.json`, 'utf8')) as BenchResults;
  }, 180_000);

  afterAll(() => {
    for (const out of outs) rmSync(out, { recursive: true, force: true });
  });

  it('writes the table, the JSON and the chart', () => {
    expect(results.schema).toBe(1);
    expect(results.quick).toBe(true);
    expect(results.machine.cpus).toBeGreaterThan(0);
    const markdown = readFileSync(`${stem}.md`, 'utf8');
    for (const heading of ['Scenarios 1–3', 'Scenario 4', 'Scenario 5', 'Targets']) {
      expect(markdown).toContain(heading);
    }
    expect(readFileSync(`${stem}.svg`, 'utf8')).toMatch(
      /^<svg [^>]*>[\s\S]*reslog[\s\S]*<\/svg>\n$/,
    );
  });

  it('delivers exactly the records sent in every pass of scenarios 1–3', () => {
    const ids = results.exporters.map((v) => v.id).sort();
    expect(ids).toEqual(
      [
        'exporter/otlp/gzip',
        'exporter/otlp/none',
        'exporter/reslog/gzip',
        'exporter/reslog/none',
        'e2e/otlp/gzip',
        'e2e/otlp/none',
        'e2e/reslog/gzip',
        'e2e/reslog/none',
        'undici/undici/gzip',
        'undici/undici/none',
      ].sort(),
    );
    const passes = results.config.processes * results.config.repetitions;
    for (const v of results.exporters) {
      expect(v.sinkRecordsPerPass, v.id).toEqual(Array(passes).fill(results.config.records));
      for (const s of [v.recordsPerSecond, v.cpuMillisPer1k, v.wireBytesPerRecord, v.peakRssMiB]) {
        expect(s.samples, v.id).toBeGreaterThan(0);
        expect(s.min, v.id).toBeGreaterThan(0);
        expect(s.min, v.id).toBeLessThanOrEqual(s.median);
        expect(s.median, v.id).toBeLessThanOrEqual(s.max);
      }
    }
  });

  it('stores every record the receiver acknowledged (scenario 4)', () => {
    expect(results.ingest.map((v) => v.id)).toHaveLength(5);
    for (const v of results.ingest) {
      expect(v.failures, v.id).toEqual({});
      expect(
        v.acceptedRecords.every((n) => n > 0 && n % v.batchRecords === 0),
        v.id,
      ).toBe(true);
      expect(v.storedRecords, v.id).toEqual(v.acceptedRecords);
      expect(v.p50Millis.median, v.id).toBeGreaterThan(0);
      expect(v.p99Millis.median, v.id).toBeGreaterThanOrEqual(v.p50Millis.median);
    }
  });

  it('accounts for every record through the outage (scenario 5)', () => {
    const o = results.outage;
    expect(o).not.toBeNull();
    if (!o) return;
    const exporterDrops = Object.values(o.droppedByExporter).reduce((a, b) => a + b, 0);
    expect(o.emitted).toBeGreaterThan(0);
    expect(o.stored).toBeGreaterThan(0);
    expect(o.stored + o.droppedByQueue + exporterDrops).toBe(o.emitted);
    expect(o.accountedFor).toBe(true);
    expect(Number.isFinite(o.rssGrowthMiB)).toBe(true);
  });

  it('drops the oldest records of a long outage first and accounts for all (scenario 6)', () => {
    expect(results.longOutage).toBeNull();
    const o = long.longOutage;
    expect(o).toBeTruthy();
    if (!o) return;
    const exporterDrops = Object.values(o.droppedByExporter).reduce((a, b) => a + b, 0);
    expect(o.droppedByExporter.backlog_full).toBeGreaterThan(0);
    expect(o.stored + o.droppedByQueue + exporterDrops).toBe(o.emitted);
    expect(o.accountedFor).toBe(true);
    expect(o.dropOrder?.failure).toBeUndefined();
    expect(o.dropOrder?.oldestFirst).toBe(true);
    expect(o.dropOrder?.missingRecords).toBe(exporterDrops + o.droppedByQueue);
    expect(readFileSync(`${longStem}.md`, 'utf8')).toContain('Scenario 6: long outage');
    expect(long.targets.map((t) => t.name)).toContain(
      'long outage: stored + drops = emitted; oldest first; RSS growth ≤ bound',
    );
  });

  it('measures a service under open-loop load and delivers what it exports (scenario 7)', () => {
    expect(results.service).toBeNull();
    const variants = service.service ?? [];
    expect(variants.map((v) => v.id).sort()).toEqual(
      [
        'none/-',
        'noop/-',
        'drop/-',
        'otlp/none',
        'otlp/gzip',
        'reslog/auto',
        'reslog/none',
        'processor/auto',
        'processor/none',
      ]
        .flatMap((key) => [`${key}/200`, `${key}/2000`])
        .sort(),
    );
    for (const v of variants) {
      expect(v.failedRequests, v.id).toBe(0);
      expect(
        v.emitted.every((n) => n > 0 && n % 10 === 0),
        v.id,
      ).toBe(true);
      expect(v.p50Millis.median, v.id).toBeGreaterThan(0);
      expect(v.p99Millis.median, v.id).toBeGreaterThanOrEqual(v.p50Millis.median);
      expect(v.p999Millis.median, v.id).toBeGreaterThanOrEqual(v.p99Millis.median);
      expect(v.cpuMillisPer1k.median, v.id).toBeGreaterThan(0);
      expect(Number.isFinite(v.eldP99Millis.median), v.id).toBe(true);
      if (v.exporter === 'otlp' || v.exporter === 'reslog' || v.exporter === 'processor') {
        // Everything handed to the exporter arrived; at smoke sizes (cold JIT, a busy
        // machine) the SDK's queue may drop some before that, which the table shows.
        expect(v.atSink, v.id).toEqual(v.handedToExporter);
        expect(
          v.atSink.every((n, i) => n > 0 && n <= (v.emitted[i] as number)),
          v.id,
        ).toBe(true);
      } else {
        expect(v.atSink, v.id).toEqual(v.emitted.map(() => 0));
      }
      // The dropping processor sees every record: it measures the SDK's part, not a queue's.
      if (v.exporter === 'drop') expect(v.handedToExporter, v.id).toEqual(v.emitted);
    }
    expect(readFileSync(`${serviceStem}.md`, 'utf8')).toContain('Scenario 7: in a service');
    const names = service.targets.map((t) => t.name);
    expect(names).toContain(
      'in a service, 20,000 records/s: request p99, reslog processor default (gzip) ÷ OTLP default (none)',
    );
    // The processor hands every record over: nothing waits in a queue that could drop it.
    for (const v of variants.filter((x) => x.exporter === 'processor')) {
      expect(v.atSink, v.id).toEqual(v.emitted);
    }
  });

  it('judges every target', () => {
    expect(results.targets.length).toBeGreaterThanOrEqual(12);
    for (const t of results.targets) expect(t.measured).not.toBe('n/a');
  });
});
