import type { BenchConfig } from './bench-config.ts';
import type { ExporterVariantResult } from './scenarios/exporter-scenarios.ts';
import type { OutageResult } from './scenarios/outage-scenario.ts';
import type { IngestVariantResult } from './scenarios/receiver-scenario.ts';
import type { ServiceVariantResult } from './scenarios/service-scenario.ts';

export interface Machine {
  cpuModel: string;
  cpus: number;
  memoryGiB: number;
  os: string;
  node: string;
  /** 1-minute load average when the run started and ended: other work on the machine. */
  loadAverageStart: number;
  loadAverageEnd: number;
}

export interface Target {
  name: string;
  goal: string;
  measured: string;
  met: boolean | null;
}

/** What one `npm run bench` writes to `bench/results/<date>.json`. */
export interface BenchResults {
  schema: 1;
  startedAt: string;
  durationSeconds: number;
  quick: boolean;
  config: BenchConfig;
  machine: Machine;
  exporters: ExporterVariantResult[];
  ingest: IngestVariantResult[];
  outage: OutageResult | null;
  /** Scenario 6 (opt-in); absent from results written before it existed. */
  longOutage?: OutageResult | null;
  /** Scenario 7, in a service; absent from results written before it existed. */
  service?: ServiceVariantResult[] | null;
  targets: Target[];
}
