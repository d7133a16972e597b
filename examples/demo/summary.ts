import type { ExporterStats } from 'reslog';

const LEVELS = ['debug', 'info', 'warning', 'error', 'critical', 'alert'] as const;

export interface ResourceSummary {
  key: string;
  name: string;
  uuid: string;
  emitted: number;
  readBack: number;
  byLevel: Record<string, number>;
  health: string;
  healthChanges: number;
  notifications: number;
}

/** Reads every log of every resource back through the read API, with health and inbox. */
export async function readBack(
  url: string,
  apiKey: string,
  username: string,
  resources: { uuid: string; key: string; name: string }[],
  emitted: Record<string, number>,
) {
  const headers = { 'x-api-key': apiKey };
  const get = async (path: string) => {
    const response = await fetch(`${url}${path}`, { headers });
    if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
    return response.json() as Promise<any>;
  };
  const inbox = await get('/api/notifications?limit=100');
  const rows: ResourceSummary[] = [];
  for (const resource of resources) {
    const byLevel: Record<string, number> = Object.fromEntries(LEVELS.map((level) => [level, 0]));
    let count = 0;
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({
        order: 'asc',
        limit: '1000',
        ...(cursor ? { cursor } : {}),
      });
      const page = await get(`/u/${username}/resources/${resource.uuid}/logs/?${query}`);
      for (const log of page.logs) byLevel[log.level] = (byLevel[log.level] ?? 0) + 1;
      count += page.logs.length;
      cursor = page.next_cursor;
    } while (cursor);
    const health = await get(`/api/resources/${resource.uuid}/health`);
    rows.push({
      ...resource,
      emitted: emitted[resource.key] ?? 0,
      readBack: count,
      byLevel,
      health: health.state,
      healthChanges: health.history.length,
      notifications: inbox.notifications.filter((n: any) => n.resource?.uuid === resource.uuid)
        .length,
    });
  }
  return { rows, complete: rows.every((row) => row.readBack === row.emitted) };
}

export function renderSummary(
  summary: Awaited<ReturnType<typeof readBack>>,
  stats: ExporterStats,
  url: string,
  apiKey: string,
  username: string,
): string {
  const header = [
    'resource',
    'emitted',
    'read back',
    ...LEVELS,
    'health',
    'changes',
    'notifications',
  ];
  const table = [
    header,
    ...summary.rows.map((row) => [
      row.key,
      String(row.emitted),
      String(row.readBack),
      ...LEVELS.map((level) => String(row.byLevel[level] ?? 0)),
      row.health,
      String(row.healthChanges),
      String(row.notifications),
    ]),
  ];
  const widths = header.map((_, column) =>
    Math.max(...table.map((line) => (line[column] ?? '').length)),
  );
  const lines = table.map((line) =>
    line.map((cell, column) => cell.padStart(widths[column] ?? 0)).join('  '),
  );
  const total = summary.rows.reduce((sum, row) => sum + row.emitted, 0);
  const verdict = summary.complete
    ? `all ${total} emitted records were read back from the receiver`
    : 'MISSING RECORDS: some emitted records were not read back';
  const first = summary.rows[0];
  return [
    '',
    lines[0],
    ...lines.slice(1),
    '',
    `exporter: ${stats.exported} exported, ${stats.retried} retried, dropped ${JSON.stringify(stats.dropped)}`,
    verdict,
    '',
    'Explore (with npm start -- --keep-running):',
    `  curl -H 'X-API-Key: ${apiKey}' '${url}/u/${username}/resources/${first?.uuid}/logs/?level=error&limit=5'`,
    `  curl -H 'X-API-Key: ${apiKey}' '${url}/u/${username}/resources/by-key/billing-worker'`,
    `  curl -H 'X-API-Key: ${apiKey}' '${url}/api/resources/${first?.uuid}/health'`,
    `  curl -H 'X-API-Key: ${apiKey}' '${url}/api/notifications'`,
    `  ${url}/_receiver/openapi.json   (every endpoint)`,
  ].join('\n');
}
