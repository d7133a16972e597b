/**
 * `npm run bench [-- --quick] [--only 1,3] [--out DIR] [--no-docs]`: runs the scenarios of
 * docs/performance.md ("What is measured"), prints the table and writes `<out>/<date>.md`, `.json` and `.svg`. A full run
 * writes to bench/results/ and refreshes the table and chart in docs/performance.md; `--quick`
 * (the smoke run the test suite uses) writes to bench/results/quick/ and leaves the docs alone.
 * Scenarios 1–5 run by default. Scenario 6, the long outage, runs only when asked for
 * (`--only 6`): it takes over 10 minutes (a 10-minute outage, then the drain), mostly idle.
 * Scenario 7, in a service (`--only 7`), is opt-in too: ≈ 19 minutes of its own, which would
 * take the default run from ≈ 7–8 to ≈ 25 minutes.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { killAll, killOnSignals } from '../test/harness/child-process.ts';
import { benchConfig } from './bench-config.ts';
import { formatJson } from './json-file.ts';
import { snapshotDist } from './package-under-test.ts';
import { evaluateTargets, markdownTable, svgChart } from './report.ts';
import type { BenchResults, Machine } from './results-types.ts';
import { type ExporterVariant, runExporterVariants } from './scenarios/exporter-scenarios.ts';
import { runOutage } from './scenarios/outage-scenario.ts';
import { type IngestVariant, runIngestVariants } from './scenarios/receiver-scenario.ts';
import { runServiceVariants, SERVICE_VARIANTS } from './scenarios/service-scenario.ts';

// No child outlives an interrupted run.
killOnSignals();

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCS = join(ROOT, 'docs', 'performance.md');
const START_MARK = '<!-- bench:latest:start -->';
const END_MARK = '<!-- bench:latest:end -->';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    out: { type: 'string' },
    'no-docs': { type: 'boolean', default: false },
    render: { type: 'string' },
  },
  strict: true,
});
const config = benchConfig(values.quick === true);
const only = new Set((values.only ?? '1,2,3,4,5').split(',').map((s) => Number(s.trim())));
const outDir = values.out ?? join(ROOT, 'bench', 'results', ...(config.quick ? ['quick'] : []));
const log = (line: string) => console.error(line);

function machine(loadAverageStart: number): Machine {
  const cores = cpus();
  return {
    cpuModel: cores[0]?.model.trim() ?? 'unknown',
    cpus: cores.length,
    memoryGiB: totalmem() / 1024 ** 3,
    os: `${type()} ${release()}`,
    node: process.versions.node,
    loadAverageStart,
    loadAverageEnd: loadavg()[0] ?? Number.NaN,
  };
}

function updateDocs(markdown: string, svgPath: string, jsonPath: string): void {
  const docs = readFileSync(DOCS, 'utf8');
  const start = docs.indexOf(START_MARK);
  const end = docs.indexOf(END_MARK);
  if (start < 0 || end < start)
    throw new Error(`${DOCS}: markers ${START_MARK} … ${END_MARK} not found`);
  const rel = (path: string) => relative(join(ROOT, 'docs'), path).split('\\').join('/');
  const block = [
    START_MARK,
    '',
    `![reslog vs OTLP](${rel(svgPath)})`,
    '',
    `Raw figures: [${rel(jsonPath).replace(/^.*\//, '')}](${rel(jsonPath)}).`,
    '',
    markdown.replace(/^### /gm, '#### '),
    END_MARK,
  ].join('\n');
  writeFileSync(DOCS, docs.slice(0, start) + block + docs.slice(end + END_MARK.length));
}

let removeSnapshot = () => {};

/** Writes table, JSON and chart next to each other; a full run also refreshes the docs. */
function writeResults(results: BenchResults, stem: string, docs: boolean): string {
  const markdown = markdownTable(results);
  writeFileSync(`${stem}.json`, formatJson(results));
  writeFileSync(`${stem}.md`, `# reslog bench ${results.startedAt.slice(0, 10)}\n\n${markdown}`);
  writeFileSync(`${stem}.svg`, svgChart(results));
  if (docs) updateDocs(markdown, `${stem}.svg`, `${stem}.json`);
  return markdown;
}

async function main(): Promise<void> {
  if (values.render) {
    // Re-renders table, chart and docs from a results JSON after a change to the report.
    const results = JSON.parse(readFileSync(values.render, 'utf8')) as BenchResults;
    results.targets = evaluateTargets(
      results.exporters,
      results.ingest,
      results.outage,
      results.longOutage ?? null,
      results.service ?? null,
    );
    const stem = values.render.replace(/\.json$/, '');
    process.stdout.write(writeResults(results, stem, !results.quick && !values['no-docs']));
    return;
  }
  removeSnapshot = snapshotDist();
  const started = new Date();
  const loadAverageStart = loadavg()[0] ?? Number.NaN;
  const begin = performance.now();
  log(`reslog bench${config.quick ? ' --quick' : ''}: scenarios ${[...only].join(', ')}`);

  const exporterVariants: ExporterVariant[] = [];
  for (const compression of ['none', 'gzip'] as const) {
    if (only.has(1)) {
      exporterVariants.push({ scenario: 1, mode: 'exporter', exporter: 'reslog', compression });
      exporterVariants.push({ scenario: 1, mode: 'exporter', exporter: 'otlp', compression });
    }
    if (only.has(2)) {
      exporterVariants.push({ scenario: 2, mode: 'e2e', exporter: 'reslog', compression });
      exporterVariants.push({ scenario: 2, mode: 'e2e', exporter: 'otlp', compression });
    }
    if (only.has(3)) {
      exporterVariants.push({ scenario: 3, mode: 'undici', exporter: 'undici', compression });
    }
  }
  exporterVariants.sort((a, b) => a.scenario - b.scenario);
  let exporters: BenchResults['exporters'] = [];
  if (exporterVariants.length > 0) {
    log('scenarios 1–3: exporters, end to end, undici ceiling');
    exporters = await runExporterVariants(config, exporterVariants, log);
  }

  let ingest: BenchResults['ingest'] = [];
  if (only.has(4)) {
    log('scenario 4: receiver ingest vs no-op sink');
    const variants: IngestVariant[] = [
      { target: 'receiver', batchRecords: 1000, load: 'max' },
      { target: 'sink', batchRecords: 1000, load: 'max' },
      { target: 'receiver', batchRecords: 100, load: 'max' },
      { target: 'sink', batchRecords: 100, load: 'max' },
      { target: 'receiver', batchRecords: 100, load: 'moderate' },
    ];
    ingest = await runIngestVariants(config, variants, log);
  }

  let outage: BenchResults['outage'] = null;
  if (only.has(5)) {
    log('scenario 5: outage memory');
    outage = await runOutage(config.outage, log);
  }

  let longOutage: BenchResults['outage'] = null;
  if (only.has(6)) {
    const o = config.longOutage;
    log(
      `scenario 6: long outage (${o.downMillis / 1000} s at ${o.recordsPerSecond} records/s, ` +
        `backlog ${o.maxBacklogBytes / 1024 / 1024} MiB, no compression)`,
    );
    longOutage = await runOutage({ ...o, compression: 'none', checkDropOrder: true }, log);
  }

  let service: BenchResults['service'] = null;
  if (only.has(7)) {
    const s = config.service;
    log(
      `scenario 7: in a service (${s.requestsPerSecond.join(' and ')} requests/s × 10 records, ` +
        `${s.runs} runs of ${s.jitWarmupMillis / 1000} s at ${Math.max(...s.requestsPerSecond)} requests/s + ` +
        `${s.warmupMillis / 1000} s warm-up + ${s.durationMillis / 1000} s timed)`,
    );
    service = await runServiceVariants(s, SERVICE_VARIANTS, log);
  }

  const results: BenchResults = {
    schema: 1,
    startedAt: started.toISOString(),
    durationSeconds: (performance.now() - begin) / 1000,
    quick: config.quick,
    config,
    machine: machine(loadAverageStart),
    exporters,
    ingest,
    outage,
    longOutage,
    service,
    targets: evaluateTargets(exporters, ingest, outage, longOutage, service),
  };
  mkdirSync(outDir, { recursive: true });
  const stem = join(outDir, started.toISOString().slice(0, 10));
  const everyDefault = [1, 2, 3, 4, 5].every((n) => only.has(n));
  const docs = !config.quick && !values['no-docs'] && values.out === undefined && everyDefault;
  const markdown = writeResults(results, stem, docs);
  process.stdout.write(`\n${markdown}\nwritten: ${stem}.{md,json,svg}\n`);
}

main().then(
  () => {
    killAll();
    removeSnapshot();
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    killAll();
    removeSnapshot();
    process.exit(1);
  },
);
