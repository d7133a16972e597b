import { InvalidOptionError } from '../errors.js';
import { isUsername, normalizeUuid } from './identifiers.js';

/** The parts of a resource URL such as `https://logs.example.com/u/alice/resources/<uuid>/`. */
export interface ResourceUrl {
  /** Origin plus any path prefix before `/u/`, without a trailing slash. */
  baseUrl: string;
  username: string;
  uuid: string;
}

/**
 * Splits a resource URL into base URL, owner and UUID. A trailing `logs/` (the ingest URL)
 * is accepted too. Throws {@link InvalidOptionError} when the URL is not a resource URL.
 */
export function parseResourceUrl(url: string, option = 'resource'): ResourceUrl {
  const expected = 'a resource URL like https://host/u/<username>/resources/<uuid>/';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidOptionError(option, expected, url);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InvalidOptionError(option, expected, url);
  }
  const segments = parsed.pathname.split('/').filter((s) => s.length > 0);
  if (segments.at(-1) === 'logs') segments.pop();
  const n = segments.length;
  const uuid = normalizeUuid(segments[n - 1]);
  const username = segments[n - 3];
  if (n < 4 || segments[n - 2] !== 'resources' || segments[n - 4] !== 'u' || !uuid) {
    throw new InvalidOptionError(option, expected, url);
  }
  if (!isUsername(username)) throw new InvalidOptionError(option, expected, url);
  const prefix = segments.slice(0, n - 4).join('/');
  return { baseUrl: prefix ? `${parsed.origin}/${prefix}` : parsed.origin, username, uuid };
}
