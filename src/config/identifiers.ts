/**
 * Formats of the service's identifiers (docs/protocol.md, "Identifiers"). Used when options are normalised and
 * when routing attributes arrive, never per log record.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RESOURCE_KEY = /^[a-z0-9][a-z0-9._-]{0,127}$/;
const USERNAME = /^[a-z0-9][a-z0-9_.-]{0,62}$/;

/** Lower-cases a UUID and returns it, or `undefined` when it is not one. */
export function normalizeUuid(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const lower = value.trim().toLowerCase();
  return UUID.test(lower) ? lower : undefined;
}

export function isResourceKey(value: unknown): value is string {
  return typeof value === 'string' && RESOURCE_KEY.test(value);
}

export function isUsername(value: unknown): value is string {
  return typeof value === 'string' && USERNAME.test(value);
}
