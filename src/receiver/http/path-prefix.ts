import { ReceiverOptionError } from '../errors.js';

/** One path segment of a prefix: RFC 3986 unreserved characters. */
const SEGMENT = /^[A-Za-z0-9._~-]+$/;

/**
 * The `pathPrefix` option (docs/receiver.md, "Path prefix"): `''` for none, else `/a` or
 * `/a/b` (a trailing slash is dropped). Throws naming the option and the value when it is
 * not such a path.
 */
export function normalizePathPrefix(value: unknown, name = 'pathPrefix'): string {
  if (value === undefined || value === '' || value === '/') return '';
  const text = typeof value === 'string' ? value.replace(/\/$/, '') : undefined;
  const segments = text?.split('/').slice(1);
  if (
    text === undefined ||
    !text.startsWith('/') ||
    !segments?.every((segment) => SEGMENT.test(segment) && segment !== '.' && segment !== '..')
  ) {
    throw new ReceiverOptionError(
      `receiver option "${name}" must be a path such as "/DevTools" (segments of letters, digits, "._~-"), got ${JSON.stringify(value)}`,
    );
  }
  return text;
}
