/** Receiver metrics in the Prometheus text exposition format (`GET /metrics`). */
export interface ReceiverMetrics {
  recordsAccepted(count: number): void;
  recordRejected(code: string): void;
  request(route: string, status: number, seconds: number): void;
  faultFired(): void;
  /** A follow stream opened (+1) or ended (-1) (docs/receiver.md, "Follow"). */
  followers(delta: 1 | -1): void;
  /** A follower was cut off because its client did not take what was sent. */
  followerCut(): void;
  render(): string;
}

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function label(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

export function createMetrics(): ReceiverMetrics {
  let accepted = 0;
  let faults = 0;
  let followers = 0;
  let followCuts = 0;
  const rejected = new Map<string, number>();
  const requests = new Map<string, number>();
  const histograms = new Map<string, { buckets: number[]; sum: number; count: number }>();

  return {
    recordsAccepted(count) {
      accepted += count;
    },
    recordRejected(code) {
      rejected.set(code, (rejected.get(code) ?? 0) + 1);
    },
    request(route, status, seconds) {
      const key = `route="${label(route)}",status="${status}"`;
      requests.set(key, (requests.get(key) ?? 0) + 1);
      let histogram = histograms.get(route);
      if (!histogram) {
        histogram = { buckets: BUCKETS.map(() => 0), sum: 0, count: 0 };
        histograms.set(route, histogram);
      }
      BUCKETS.forEach((bound, i) => {
        if (seconds <= bound) (histogram.buckets[i] as number)++;
      });
      histogram.sum += seconds;
      histogram.count++;
    },
    faultFired() {
      faults++;
    },
    followers(delta) {
      followers += delta;
    },
    followerCut() {
      followCuts++;
    },
    render() {
      const lines = [
        '# HELP reslog_receiver_records_accepted_total Log records stored.',
        '# TYPE reslog_receiver_records_accepted_total counter',
        `reslog_receiver_records_accepted_total ${accepted}`,
        '# HELP reslog_receiver_records_rejected_total Log records rejected, by error code.',
        '# TYPE reslog_receiver_records_rejected_total counter',
      ];
      for (const [code, n] of rejected) {
        lines.push(`reslog_receiver_records_rejected_total{code="${label(code)}"} ${n}`);
      }
      lines.push(
        '# HELP reslog_receiver_requests_total HTTP requests answered, by route and status.',
        '# TYPE reslog_receiver_requests_total counter',
      );
      for (const [key, n] of requests) lines.push(`reslog_receiver_requests_total{${key}} ${n}`);
      lines.push(
        '# HELP reslog_receiver_request_duration_seconds Time to answer a request.',
        '# TYPE reslog_receiver_request_duration_seconds histogram',
      );
      for (const [route, h] of histograms) {
        const r = `route="${label(route)}"`;
        BUCKETS.forEach((bound, i) => {
          lines.push(
            `reslog_receiver_request_duration_seconds_bucket{${r},le="${bound}"} ${h.buckets[i]}`,
          );
        });
        lines.push(
          `reslog_receiver_request_duration_seconds_bucket{${r},le="+Inf"} ${h.count}`,
          `reslog_receiver_request_duration_seconds_sum{${r}} ${h.sum}`,
          `reslog_receiver_request_duration_seconds_count{${r}} ${h.count}`,
        );
      }
      lines.push(
        '# HELP reslog_receiver_faults_fired_total Injected faults that fired.',
        '# TYPE reslog_receiver_faults_fired_total counter',
        `reslog_receiver_faults_fired_total ${faults}`,
        '# HELP reslog_receiver_followers Open follow streams (GET .../logs/?follow=true).',
        '# TYPE reslog_receiver_followers gauge',
        `reslog_receiver_followers ${followers}`,
        '# HELP reslog_receiver_follow_cut_total Follow streams cut off: the client did not read.',
        '# TYPE reslog_receiver_follow_cut_total counter',
        `reslog_receiver_follow_cut_total ${followCuts}`,
        ...memoryGauges(),
      );
      return `${lines.join('\n')}\n`;
    },
  };
}

/**
 * The process's memory under the names prom-client's default metrics use, so a dashboard (or
 * the soak, scripts/soak.ts) can tell a growing heap from memory the process merely keeps.
 */
function memoryGauges(): string[] {
  const memory = process.memoryUsage();
  const gauges: [string, string, number][] = [
    ['process_resident_memory_bytes', 'Resident memory size in bytes.', memory.rss],
    ['nodejs_heap_size_total_bytes', 'V8 heap reserved, in bytes.', memory.heapTotal],
    ['nodejs_heap_size_used_bytes', 'V8 heap in use, in bytes.', memory.heapUsed],
    [
      'nodejs_external_memory_bytes',
      'Memory of C++ objects bound to JavaScript objects (Buffers), in bytes.',
      memory.external,
    ],
  ];
  return gauges.flatMap(([name, help, value]) => [
    `# HELP ${name} ${help}`,
    `# TYPE ${name} gauge`,
    `${name} ${value}`,
  ]);
}
