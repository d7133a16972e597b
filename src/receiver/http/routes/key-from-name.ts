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
