/** The results as a Markdown table, the targets verdict, and an SVG chart of reslog vs OTLP. */
import type { BenchConfig } from './bench-config.ts';
import type { BenchResults, Target } from './results-types.ts';
import type { ExporterVariantResult } from './scenarios/exporter-scenarios.ts';
import type { OutageResult } from './scenarios/outage-scenario.ts';
import type { IngestVariantResult } from './scenarios/receiver-scenario.ts';
import type { ServiceVariantResult } from './scenarios/service-scenario.ts';
import { ratio, type Spread } from './summary.ts';

function find<T extends { id: string }>(items: readonly T[], id: string): T | undefined {
  return items.find((item) => item.id === id);
}

function num(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (Math.abs(value) >= 10_000) return `${(value / 1000).toFixed(0)}k`;
  return value.toFixed(digits);
}

function range(s: Spread | undefined, digits = 0): string {
  if (!s || s.samples === 0) return 'n/a';
  if (s.samples === 1 || s.min === s.max) return num(s.median, digits);
  return `${num(s.median, digits)} (${num(s.min, digits)}–${num(s.max, digits)})`;
}

function times(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a';
}

const NAMES: Record<string, string> = {
  reslog: 'reslog',
  otlp: 'OTLP/JSON',
  undici: 'undici ceiling',
};
const MODES: Record<string, string> = {
  exporter: '1. exporter only',
  e2e: '2. end to end',
  undici: '3. the limit',
};

export function evaluateTargets(
  exporters: readonly ExporterVariantResult[],
  ingest: readonly IngestVariantResult[],
  outage: BenchResults['outage'],
  longOutage: OutageResult | null = null,
  service: readonly ServiceVariantResult[] | null = null,
): Target[] {
  const ex = (id: string) => find(exporters, id);
  const ing = (id: string) => find(ingest, id);
  const targets: Target[] = [];
  // `met` undefined: a figure the issue asks to report, with no goal.
  const add = (
    name: string,
    goal: string,
    value: number,
    met?: (v: number) => boolean,
    show = times,
  ) =>
    targets.push({
      name,
      goal,
      measured: show(value),
      met: met && Number.isFinite(value) ? met(value) : null,
    });

  const reslog = ex('exporter/reslog/none');
  const otlp = ex('exporter/otlp/none');
  add(
    'exporter only: records/s reslog ÷ OTLP (none)',
    '≥ 4×',
    ratio(reslog?.recordsPerSecond, otlp?.recordsPerSecond),
    (v) => v >= 4,
  );
  add(
    'exporter only: CPU per record reslog ÷ OTLP (none)',
    '≤ 0.25×',
    ratio(reslog?.cpuMillisPer1k, otlp?.cpuMillisPer1k),
    (v) => v <= 0.25,
  );
  add(
    'exporter only: reslog ÷ undici ceiling (none)',
    '≥ 60 %',
    ratio(reslog?.recordsPerSecond, ex('undici/undici/none')?.recordsPerSecond),
    (v) => v >= 0.6,
    (v) => (Number.isFinite(v) ? `${(v * 100).toFixed(0)} %` : 'n/a'),
  );
  add(
    'end to end: records/s reslog ÷ OTLP (none)',
    '≥ 1.8×',
    ratio(ex('e2e/reslog/none')?.recordsPerSecond, ex('e2e/otlp/none')?.recordsPerSecond),
    (v) => v >= 1.8,
  );
  add(
    'bytes per record reslog ÷ OTLP (none)',
    '≤ 0.5×',
    ratio(reslog?.wireBytesPerRecord, otlp?.wireBytesPerRecord),
    (v) => v <= 0.5,
  );
  add(
    'bytes per record reslog ÷ OTLP (gzip)',
    'report',
    ratio(
      ex('exporter/reslog/gzip')?.wireBytesPerRecord,
      ex('exporter/otlp/gzip')?.wireBytesPerRecord,
    ),
  );
  const r1000 = ing('receiver/1000/max');
  add(
    'receiver: records/s persisted, 1000-record batches',
    '≥ 100k',
    r1000?.recordsPerSecond.median ?? Number.NaN,
    (v) => v >= 100_000,
    (v) => num(v),
  );
  add(
    'receiver ÷ no-op ceiling, 1000-record batches',
    '≥ 0.5×',
    ratio(r1000?.recordsPerSecond, ing('sink/1000/max')?.recordsPerSecond),
    (v) => v >= 0.5,
  );
  add(
    'receiver ÷ no-op ceiling, 100-record batches',
    'report',
    ratio(ing('receiver/100/max')?.recordsPerSecond, ing('sink/100/max')?.recordsPerSecond),
  );
  add(
    'receiver p99, 100-record batches, moderate load',
    '< 50 ms',
    ing('receiver/100/moderate')?.p99Millis.median ?? Number.NaN,
    (v) => v < 50,
    (v) => `${num(v, 1)} ms`,
  );
  if (outage) {
    add(
      'outage: app RSS growth',
      '≤ 64 MiB',
      outage.rssGrowthMiB,
      (v) => v <= 64,
      (v) => `${num(v, 1)} MiB`,
    );
    targets.push({
      name: 'outage: every dropped record accounted for by reason',
      goal: 'yes',
      measured: outage.accountedFor ? 'yes' : 'no',
      met: outage.accountedFor,
    });
  }
  if (longOutage) {
    const bound = rssBoundMiB(longOutage);
    const oldestFirst = longOutage.dropOrder?.oldestFirst === true;
    const withinBound = longOutage.rssGrowthMiB <= bound;
    const yes = (ok: boolean) => (ok ? 'yes' : 'no');
    targets.push({
      name: 'long outage: stored + drops = emitted; oldest first; RSS growth ≤ bound',
      goal: `yes; yes; ≤ ${num(bound, 1)} MiB`,
      measured: `${yes(longOutage.accountedFor)}; ${yes(oldestFirst)}; ${num(longOutage.rssGrowthMiB, 1)} MiB`,
      met: longOutage.accountedFor && oldestFirst && withinBound,
    });
  }
  if (service && service.length > 0) targets.push(...serviceTargets(service));
  return targets;
}

/** Scenario 7's variants by name; `default` marks each exporter's out-of-the-box setup. */
const SERVICE_NAMES: Record<string, string> = {
  'none/-': 'no export (no SDK: the API no-op logger)',
  'noop/-': 'SDK + no-op exporter',
  'drop/-': 'SDK + a processor that drops (any processor pays this)',
  'otlp/none': 'OTLP/JSON, no compression (default)',
  'otlp/gzip': 'OTLP/JSON, gzip',
  'reslog/auto': 'reslog exporter, defaults (auto → gzip)',
  'reslog/none': "reslog exporter, compression 'none'",
  'processor/auto': 'reslog processor, defaults (auto → gzip)',
  'processor/none': "reslog processor, compression 'none'",
};

/** The pairs scenario 7 compares: reslog's recommended setup vs OTLP's default, then equal compression. */
const SERVICE_PAIRS = [
  ['reslog processor default (gzip) ÷ OTLP default (none)', 'processor/auto', 'otlp/none'],
  ['gzip: reslog processor default ÷ OTLP gzip', 'processor/auto', 'otlp/gzip'],
  ['none: reslog processor none ÷ OTLP none', 'processor/none', 'otlp/none'],
  ['reslog exporter default (gzip) ÷ OTLP default (none)', 'reslog/auto', 'otlp/none'],
  ['gzip: reslog exporter default ÷ OTLP gzip', 'reslog/auto', 'otlp/gzip'],
  ['none: reslog exporter none ÷ OTLP none', 'reslog/none', 'otlp/none'],
  // Not a target: how much of OTLP's cost any processor pays before it sees a record.
  ['floor: SDK + a processor that drops ÷ OTLP none', 'drop/-', 'otlp/none'],
] as const;

function serviceCell(
  service: readonly ServiceVariantResult[],
  key: string,
  requestsPerSecond: number,
): ServiceVariantResult | undefined {
  return find(service, `${key}/${requestsPerSecond}`);
}

function serviceRates(service: readonly ServiceVariantResult[]): number[] {
  return [...new Set(service.map((v) => v.requestsPerSecond))];
}

const perSecond = (requestsPerSecond: number) =>
  `${(requestsPerSecond * 10).toLocaleString('en-US')} records/s`;

/** Event-loop delay p99 above the no-export run's at the same rate (median of each). */
function addedEld(
  service: readonly ServiceVariantResult[],
  v: ServiceVariantResult | undefined,
): number {
  const base = v && serviceCell(service, 'none/-', v.requestsPerSecond);
  if (!v || !base) return Number.NaN;
  return Math.max(0, v.eldP99Millis.median - base.eldP99Millis.median);
}

function serviceTargets(service: readonly ServiceVariantResult[]): Target[] {
  const targets: Target[] = [];
  for (const rate of serviceRates(service)) {
    for (const [label, reslogKey, otlpKey] of SERVICE_PAIRS.slice(0, 3)) {
      const a = serviceCell(service, reslogKey, rate);
      const b = serviceCell(service, otlpKey, rate);
      if (!a || !b) continue;
      const rows = [
        [
          'added CPU per record',
          '≤ 0.5×',
          ratio(a.addedCpuMillisPer1k, b.addedCpuMillisPer1k),
          0.5,
        ],
        ['added event-loop delay p99', '≤ 0.5×', addedEld(service, a) / addedEld(service, b), 0.5],
        ['request p99', '≤ 1×', ratio(a.p99Millis, b.p99Millis), 1],
      ] as const;
      for (const [what, goal, value, limit] of rows) {
        targets.push({
          name: `in a service, ${perSecond(rate)}: ${what}, ${label}`,
          goal,
          measured: times(value),
          met: Number.isFinite(value) ? value <= limit : null,
        });
      }
    }
  }
  const sending = service.filter((v) => v.delivered !== null);
  targets.push({
    name: 'in a service: records at the sink = emitted, every run that exports',
    goal: 'yes',
    measured: sending.every((v) => v.delivered)
      ? 'yes'
      : `no (${sending
          .filter((v) => !v.delivered)
          .map((v) => v.id)
          .join(', ')})`,
    met: sending.every((v) => v.delivered),
  });
  return targets;
}

function serviceTable(service: readonly ServiceVariantResult[], config: BenchConfig): string[] {
  const s = config.service;
  const lines = [
    `### Scenario 7: in a service (\`node:http\`, 10 records per request through the SDK's defaults; ` +
      `open-loop load from another process; ${s.runs} runs per row, each a fresh service: ` +
      `${s.jitWarmupMillis / 1000} s at ${Math.max(...s.requestsPerSecond)} requests/s for the JIT, ` +
      `${s.warmupMillis / 1000} s warm-up at the rate, ${s.durationMillis / 1000} s timed)`,
    '',
    "Latency is from each request's scheduled send time. CPU is the service's (every thread) over " +
      'the timed window per 1 000 records emitted; "added" subtracts the no-export median at the ' +
      `same rate. Event-loop delay: \`monitorEventLoopDelay\` (${s.eldResolutionMillis} ms resolution), ` +
      'beyond the sampling interval. Generator lag: how late the load generator sent (p99), ' +
      'a floor under every latency.',
    '',
    '| rate | variant | CPU ms / 1k records | of it main thread | added CPU ms / 1k records | request p50 ms | p99 ms | p99.9 ms | ELD p99 ms | ELD max ms | generator lag p99 ms | records at sink / emitted | wire bytes / record |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const v of service) {
    const key = `${v.exporter}/${v.compression ?? '-'}`;
    const isBase = v.exporter === 'none';
    const handed = v.handedToExporter.reduce((a, b) => a + b, 0);
    const emitted = v.emitted.reduce((a, b) => a + b, 0);
    const sink = v.atSink.reduce((a, b) => a + b, 0);
    const queueDrops = v.exporter === 'none' ? 0 : emitted - handed;
    const delivered =
      v.delivered === null
        ? `– (${emitted} emitted)`
        : `${sink} / ${emitted}${v.delivered ? '' : ` NO${queueDrops > 0 ? ` (${queueDrops} dropped by the processor's queue)` : ''}`}`;
    lines.push(
      `| ${perSecond(v.requestsPerSecond)} | ${SERVICE_NAMES[key] ?? key} | ${range(v.cpuMillisPer1k, 2)} | ` +
        `${v.mainThreadCpuMillisPer1k ? range(v.mainThreadCpuMillisPer1k, 2) : 'n/a'} | ` +
        `${isBase ? '–' : range(v.addedCpuMillisPer1k, 2)} | ${range(v.p50Millis, 2)} | ${range(v.p99Millis, 1)} | ` +
        `${range(v.p999Millis, 1)} | ${range(v.eldP99Millis, 2)} | ${range(v.eldMaxMillis, 1)} | ` +
        `${range(v.sendLagP99Millis, 2)} | ${delivered}${v.failedRequests > 0 ? `; ${v.failedRequests} requests FAILED` : ''} | ` +
        `${range(v.wireBytesPerRecord, 1)} |`,
    );
  }
  lines.push(
    '',
    '| ratio | rate | added CPU per record | event-loop delay p99 | added event-loop delay p99 | request p99 |',
    '| --- | --- | --- | --- | --- | --- |',
  );
  for (const rate of serviceRates(service)) {
    for (const [label, reslogKey, otlpKey] of SERVICE_PAIRS) {
      const a = serviceCell(service, reslogKey, rate);
      const b = serviceCell(service, otlpKey, rate);
      if (!a || !b) continue;
      lines.push(
        `| ${label} | ${perSecond(rate)} | ${times(ratio(a.addedCpuMillisPer1k, b.addedCpuMillisPer1k))} | ` +
          `${times(ratio(a.eldP99Millis, b.eldP99Millis))} | ` +
          `${times(addedEld(service, a) / addedEld(service, b))} | ${times(ratio(a.p99Millis, b.p99Millis))} |`,
      );
    }
  }
  lines.push('');
  return lines;
}

/** Scenario 6's bound on RSS growth: the backlog's bound, all of it bodies. */
function rssBoundMiB(o: OutageResult): number {
  return (o.maxBacklogBytes ?? Number.NaN) / 1024 / 1024;
}

function longOutageTable(o: OutageResult): string[] {
  const drops =
    Object.entries(o.droppedByExporter)
      .map(([reason, n]) => `${n} ${reason}`)
      .join(', ') || '0';
  const bound = rssBoundMiB(o);
  const d = o.dropOrder;
  const lines = [
    `### Scenario 6: long outage (${o.recordsPerSecond} records/s; backlog ${num(bound, 2)} MiB, ` +
      `compression ${o.compression ?? 'gzip'}; receiver up ${o.upMillis / 1000} s, ` +
      `down ${o.downMillis / 1000} s, back ${o.recoveryMillis / 1000} s)`,
    '',
    '| emitted | stored | dropped: processor queue full | dropped: exporter, by reason | stored + drops = emitted | RSS before MiB | peak RSS MiB | RSS growth MiB | bound: before + backlog MiB | heap growth MiB | arrayBuffers growth MiB | peak backlog MiB |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    `| ${o.emitted} | ${o.stored} | ${o.droppedByQueue} | ${drops} | ${o.accountedFor ? 'yes' : 'NO'} | ` +
      `${num(o.baselineRssMiB, 1)} | ${num(o.peakRssMiB, 1)} | ${num(o.rssGrowthMiB, 1)} | ` +
      `${num(o.baselineRssMiB + bound, 1)} (${o.peakRssMiB <= o.baselineRssMiB + bound ? 'within' : 'ABOVE'}) | ` +
      `${num(o.heapGrowthMiB, 1)} | ${num(o.arrayBuffersGrowthMiB ?? Number.NaN, 1)} | ${num(o.peakBacklogMiB ?? Number.NaN, 2)} |`,
    '',
  ];
  if (d) {
    const ranges = d.missing.map((r) => `#${r.first}–#${r.last}`).join(', ');
    lines.push(
      `Records missing from the receiver's database: ${d.missingRecords} in ${d.missingRanges} ` +
        `range${d.missingRanges === 1 ? '' : 's'}${ranges ? ` (${ranges}${d.missingRanges > d.missing.length ? ', …' : ''})` : ''}; ` +
        `stored before the outage: #0–#${d.storedBeforeOutage - 1}; emitted when it began: ${d.emittedAtOutage}; ` +
        `stored twice: ${d.duplicates}.` +
        (d.keptInFlight
          ? ` Stored from inside the dropped range: #${d.keptInFlight.first}–#${d.keptInFlight.last}, the batch in flight when the receiver came back.`
          : '') +
        ` Oldest dropped first: ${d.oldestFirst ? 'yes' : `NO (${d.failure})`}.`,
      '',
    );
  }
  return lines;
}

export function markdownTable(results: BenchResults): string {
  const { config, machine } = results;
  const lines: string[] = [];
  lines.push(
    `Run ${results.startedAt}${results.quick ? ' (--quick: smoke sizes, not a measurement)' : ''}, ` +
      `${results.durationSeconds.toFixed(0)} s. ${machine.cpus} × ${machine.cpuModel}, ` +
      `${machine.memoryGiB.toFixed(0)} GiB, ${machine.os}, Node ${machine.node}; ` +
      `load average ${machine.loadAverageStart.toFixed(2)} at start, ${machine.loadAverageEnd.toFixed(2)} at end.`,
    '',
    'Medians with (min–max) over all timed passes.',
    '',
  );

  if (results.exporters.length > 0) {
    lines.push(
      `### Scenarios 1–3: ${config.records.toLocaleString('en-US')} records, batches of ${config.batchSize}, ` +
        `${config.processes} processes × ${config.repetitions} passes after a warm-up pass`,
      '',
      '| scenario | exporter | compression | records/s | CPU ms / 1k records | wire bytes / record | peak RSS MiB | RSS growth MiB | records at sink / pass |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    );
    for (const v of results.exporters) {
      const counts = [...new Set(v.sinkRecordsPerPass)].join(', ');
      lines.push(
        `| ${MODES[v.mode]} | ${NAMES[v.exporter]} | ${v.compression} | ${range(v.recordsPerSecond)} | ` +
          `${range(v.cpuMillisPer1k, 2)} | ${range(v.wireBytesPerRecord, 1)} | ${range(v.peakRssMiB)} | ` +
          `${range(v.rssGrowthMiB)} | ${counts} |`,
      );
    }
    lines.push(
      '',
      '| ratio reslog ÷ OTLP | compression | records/s | CPU per record | wire bytes per record |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const mode of ['exporter', 'e2e']) {
      for (const compression of ['none', 'gzip']) {
        const a = find(results.exporters, `${mode}/reslog/${compression}`);
        const b = find(results.exporters, `${mode}/otlp/${compression}`);
        if (!a || !b) continue;
        lines.push(
          `| ${MODES[mode]} | ${compression} | ${times(ratio(a.recordsPerSecond, b.recordsPerSecond))} | ` +
            `${times(ratio(a.cpuMillisPer1k, b.cpuMillisPer1k))} | ${times(ratio(a.wireBytesPerRecord, b.wireBytesPerRecord))} |`,
        );
      }
    }
    for (const compression of ['none', 'gzip']) {
      const a = find(results.exporters, `exporter/reslog/${compression}`);
      const c = find(results.exporters, `undici/undici/${compression}`);
      if (a && c) {
        lines.push(
          `| reslog ÷ undici ceiling | ${compression} | ${(ratio(a.recordsPerSecond, c.recordsPerSecond) * 100).toFixed(0)} % | ` +
            `${times(ratio(a.cpuMillisPer1k, c.cpuMillisPer1k))} | ${times(ratio(a.wireBytesPerRecord, c.wireBytesPerRecord))} |`,
        );
      }
    }
    lines.push('');
  }

  if (results.ingest.length > 0) {
    const r = config.receiver;
    lines.push(
      `### Scenario 4: receiver ingest (file database) vs the no-op node:http sink that only parses the JSON`,
      '',
      `${r.runs} runs per row, each a fresh server and load generator: ${r.warmupMillis / 1000} s warm-up, ` +
        `${r.durationMillis / 1000} s timed; closed loop with ${r.concurrency} requests in flight, ` +
        `or "moderate": ${r.moderateRequestsPerSecond} requests/s.`,
      '',
      '| server | records / request | load | records/s | p50 ms | p99 ms | server CPU ms / 1k records | acknowledged = stored |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
    );
    for (const v of results.ingest) {
      const stored = v.acceptedRecords.every((n, i) => n === v.storedRecords[i]);
      const failed = Object.entries(v.failures)
        .map(([status, n]) => `${n}× ${status}`)
        .join(', ');
      lines.push(
        `| ${v.target === 'receiver' ? 'receiver' : 'no-op sink'} | ${v.batchRecords} | ` +
          `${v.load === 'max' ? `max (${v.concurrency} in flight)` : `${v.requestsPerSecond} req/s`} | ` +
          `${range(v.recordsPerSecond)} | ${range(v.p50Millis, 1)} | ${range(v.p99Millis, 1)} | ` +
          `${range(v.serverCpuMillisPer1k, 2)} | ${v.target === 'receiver' ? (stored ? 'yes' : 'NO') : '–'}${failed ? `; failures: ${failed}` : ''} |`,
      );
    }
    lines.push('');
  }

  const o = results.outage;
  if (o) {
    const drops =
      Object.entries(o.droppedByExporter)
        .map(([reason, n]) => `${n} ${reason}`)
        .join(', ') || '0';
    lines.push(
      `### Scenario 5: outage memory (${o.recordsPerSecond} records/s; receiver up ${o.upMillis / 1000} s, ` +
        `down ${o.downMillis / 1000} s, back ${o.recoveryMillis / 1000} s)`,
      '',
      '| emitted | stored | dropped: processor queue full | dropped: exporter, by reason | retried requests | RSS before MiB | peak RSS MiB | RSS growth MiB | heap growth MiB | accounted for |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      `| ${o.emitted} | ${o.stored} | ${o.droppedByQueue} | ${drops} | ${o.retried} | ${num(o.baselineRssMiB, 1)} | ` +
        `${num(o.peakRssMiB, 1)} | ${num(o.rssGrowthMiB, 1)} | ${num(o.heapGrowthMiB, 1)} | ${o.accountedFor ? 'yes' : 'NO'} |`,
      '',
    );
  }

  if (results.longOutage) lines.push(...longOutageTable(results.longOutage));
  if (results.service && results.service.length > 0) {
    lines.push(...serviceTable(results.service, config));
  }

  lines.push('### Targets', '', '| target | goal | measured | met |', '| --- | --- | --- | --- |');
  for (const t of results.targets) {
    lines.push(
      `| ${t.name} | ${t.goal} | ${t.measured} | ${t.met === null ? '–' : t.met ? 'yes' : 'no'} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const COLORS: Record<string, string> = { reslog: '#2b6cb0', otlp: '#c05621', undici: '#718096' };

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Horizontal bars (median) with min–max whiskers, one panel per metric, reslog vs OTLP. */
export function svgChart(results: BenchResults): string {
  const groups = [
    ['exporter', 'none', 'exporter only, no compression'],
    ['exporter', 'gzip', 'exporter only, gzip'],
    ['e2e', 'none', 'end to end (SDK), no compression'],
    ['e2e', 'gzip', 'end to end (SDK), gzip'],
  ] as const;
  const panels = [
    {
      title: 'records per second (higher is better)',
      pick: (v: ExporterVariantResult) => v.recordsPerSecond,
      unit: (x: number) => `${Math.round(x / 1000)}k/s`,
    },
    {
      title: 'CPU ms per 1 000 records (lower is better)',
      pick: (v: ExporterVariantResult) => v.cpuMillisPer1k,
      unit: (x: number) => `${x.toFixed(2)} ms`,
    },
  ];
  const width = 760;
  const labelWidth = 230;
  const barHeight = 16;
  const plotWidth = width - labelWidth - 110;
  let y = 40;
  const parts: string[] = [];
  parts.push(
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">reslog vs OpenTelemetry OTLP/JSON exporter${results.quick ? ' (quick smoke run)' : ''}</text>`,
  );
  for (const panel of panels) {
    const rows: Array<
      { label: string; exporter: string; s: Spread; note: string } | { group: string }
    > = [];
    for (const [mode, compression, title] of groups) {
      const members = ['reslog', 'otlp', ...(mode === 'exporter' ? ['undici'] : [])]
        .map((exporter) => ({
          exporter,
          v: find(
            results.exporters,
            `${mode === 'exporter' && exporter === 'undici' ? 'undici' : mode}/${exporter}/${compression}`,
          ),
        }))
        .filter((m) => m.v !== undefined);
      if (members.length === 0) continue;
      rows.push({ group: title });
      const otlp = members.find((m) => m.exporter === 'otlp')?.v;
      for (const m of members) {
        const s = panel.pick(m.v as ExporterVariantResult);
        const versus = m.exporter === 'reslog' && otlp ? ratio(s, panel.pick(otlp)) : Number.NaN;
        rows.push({
          label: NAMES[m.exporter] ?? m.exporter,
          exporter: m.exporter,
          s,
          note: Number.isFinite(versus) ? `  (${versus.toFixed(2)}× OTLP)` : '',
        });
      }
    }
    const maxValue = Math.max(
      1e-9,
      ...rows.flatMap((r) => ('s' in r && Number.isFinite(r.s.max) ? [r.s.max] : [])),
    );
    const scale = (x: number) => (x / maxValue) * plotWidth;
    y += 14;
    parts.push(
      `<text x="10" y="${y}" font-size="13" font-weight="bold">${escapeXml(panel.title)}</text>`,
    );
    y += 8;
    for (const row of rows) {
      if ('group' in row) {
        y += 16;
        parts.push(
          `<text x="10" y="${y}" font-size="12" fill="#333">${escapeXml(row.group)}</text>`,
        );
        y += 4;
        continue;
      }
      const s = row.s;
      const w = Number.isFinite(s.median) ? scale(s.median) : 0;
      parts.push(
        `<text x="${labelWidth - 8}" y="${y + 12}" font-size="12" text-anchor="end">${escapeXml(row.label)}</text>`,
        `<rect x="${labelWidth}" y="${y}" width="${w.toFixed(1)}" height="${barHeight}" fill="${COLORS[row.exporter]}"/>`,
      );
      if (Number.isFinite(s.min) && s.max > s.min) {
        const cy = y + barHeight / 2;
        parts.push(
          `<line x1="${(labelWidth + scale(s.min)).toFixed(1)}" x2="${(labelWidth + scale(s.max)).toFixed(1)}" y1="${cy}" y2="${cy}" stroke="#000" stroke-width="1"/>`,
        );
      }
      parts.push(
        `<text x="${(labelWidth + Math.max(w, Number.isFinite(s.max) ? scale(s.max) : 0) + 6).toFixed(1)}" y="${y + 12}" font-size="11">${escapeXml(panel.unit(s.median) + row.note)}</text>`,
      );
      y += barHeight + 4;
    }
    y += 10;
  }
  y += 6;
  parts.push(
    `<text x="10" y="${y}" font-size="10" fill="#555">Bars: median over all timed passes; whiskers: min–max. ${escapeXml(`${results.machine.cpus} × ${results.machine.cpuModel}`)}, Node ${results.machine.node}, ${results.startedAt.slice(0, 10)}.</text>`,
  );
  const height = y + 12;
  const title =
    'reslog vs the OpenTelemetry OTLP/JSON exporter: records per second and CPU per record';
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="chart-title" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif">\n<title id="chart-title">${title}</title>\n<rect width="100%" height="100%" fill="#fff"/>\n${parts.join('\n')}\n</svg>\n`;
}
