import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 digest of an API key: the only form in which keys are stored. */
export function digestKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** Constant-time comparison of two digests. */
export function digestsEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A new API key `rlk_<id>_<secret>`: `id` (8 hex chars) names the key in journals and
 * listings without revealing it, `secret` carries 192 random bits (base64url).
 */
export function generateApiKey(): { key: string; label: string } {
  const id = randomBytes(4).toString('hex');
  const secret = randomBytes(24).toString('base64url');
  return { key: `rlk_${id}_${secret}`, label: `rlk_${id}` };
}

/** What may be shown of a key: the `rlk_<id>` prefix, or a fixed mask for other keys. */
export function keyLabel(key: string): string {
  const match = /^(rlk_[0-9a-f]{8})_/.exec(key);
  return match?.[1] ?? `key:${digestKey(key).subarray(0, 4).toString('hex')}`;
}
