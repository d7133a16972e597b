/**
 * Formats of the service's identifiers (docs/protocol.md, "Identifiers"). The exporter checks
 * them when options are normalised and when routing attributes arrive; the receiver in its
 * auth hook, its management API's JSON schemas and the seed file.
 */

/** A UUID in either case; the service's own UUIDs are v4, lower case. */
export const UUID_PATTERN =
  '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
/** A resource key, unique per owner (an account or a team). */
export const RESOURCE_KEY_PATTERN = '^[a-z0-9][a-z0-9._-]{0,127}$';
/** A username or a team name: the two are separate namespaces with the same format. */
export const USERNAME_PATTERN = '^[a-z0-9][a-z0-9_.-]{0,62}$';

const UUID = new RegExp(UUID_PATTERN);
const RESOURCE_KEY = new RegExp(RESOURCE_KEY_PATTERN);
const USERNAME = new RegExp(USERNAME_PATTERN);

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** Lower-cases a UUID (surrounding spaces removed) and returns it, or `undefined` when it is not one. */
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
