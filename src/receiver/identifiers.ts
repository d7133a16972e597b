/** Formats of the service's identifiers (docs/protocol.md). */

export const UUID_PATTERN =
  '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
export const RESOURCE_KEY_PATTERN = '^[a-z0-9][a-z0-9._-]{0,127}$';
export const USERNAME_PATTERN = '^[a-z0-9][a-z0-9_.-]{0,62}$';

const UUID = new RegExp(UUID_PATTERN);
const RESOURCE_KEY = new RegExp(RESOURCE_KEY_PATTERN);
const USERNAME = new RegExp(USERNAME_PATTERN);

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

export function isResourceKey(value: unknown): value is string {
  return typeof value === 'string' && RESOURCE_KEY.test(value);
}

export function isUsername(value: unknown): value is string {
  return typeof value === 'string' && USERNAME.test(value);
}

/**
 * A resource key made from a name (`"Checkout API"` → `checkout-api`): lower-case ASCII,
 * runs of other characters become one `-`; `resource` when nothing is left.
 */
export function keyFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 128)
    .replace(/[-._]+$/, '');
  return slug === '' ? 'resource' : slug;
}
