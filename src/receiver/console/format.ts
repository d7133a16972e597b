/** `2026-11-23T02:30:01.123456789Z` → `2026-11-23 02:30:01.123` (UTC, as the header says). */
export function formatTs(ts: string | null | undefined): string {
  if (!ts) return '—';
  const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(\.\d{1,3})?/.exec(ts);
  return match ? `${match[1]} ${match[2]}${match[3] ?? ''}` : ts;
}

/** Pretty JSON for reading and copying; `undefined` (absent) shows as nothing. */
export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? '';
}

/** The CSS class of a level: the six canonical names, anything else as `custom`. */
export function levelClass(level: string): string {
  const known = ['debug', 'info', 'warning', 'error', 'alert', 'critical'];
  return known.includes(level) ? `level level-${level}` : 'level level-custom';
}
