import { createHmac, timingSafeEqual } from 'node:crypto';

/** `X-Reslog-Signature` of a webhook body: `sha256=<hex HMAC-SHA256(secret, body)>`. */
export function signWebhook(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** What a webhook receiver does: recompute the signature and compare in constant time. */
export function verifyWebhook(secret: string, body: string, signature: string | undefined) {
  if (signature === undefined) return false;
  const expected = Buffer.from(signWebhook(secret, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
