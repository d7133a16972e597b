import { isUsername, normalizeUuid } from '../contract/identifiers.js';
import { InvalidOptionError } from '../errors.js';

/**
 * The parts of a resource URL such as `https://logs.example.com/u/alice/resources/<uuid>/`
 * or, for a team's resource, `https://logs.example.com/team/devops/resources/<uuid>/`.
 * Exactly one of `username` and `team` is set.
 */
export interface ResourceUrl {
  /** Origin plus any path prefix before `/u/` or `/team/`, without a trailing slash. */
  baseUrl: string;
  /** Owner account, for a resource URL with `/u/<username>/`. */
  username?: string;
  /** Owner team, for a resource URL with `/team/<team>/`. */
  team?: string;
  uuid: string;
}

/**
 * Splits a resource URL into base URL, owner (account or team) and UUID. A trailing `logs/`
 * (the ingest URL) is accepted too. Throws {@link InvalidOptionError} when the URL is not a
 * resource URL.
 */
export function parseResourceUrl(url: string, option = 'resource'): ResourceUrl {
  const expected =
    'a resource URL like https://host/u/<username>/resources/<uuid>/ or https://host/team/<team>/resources/<uuid>/';
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
  const owner = segments[n - 3];
  const kind = segments[n - 4];
  if (n < 4 || segments[n - 2] !== 'resources' || (kind !== 'u' && kind !== 'team') || !uuid) {
    throw new InvalidOptionError(option, expected, url);
  }
  // Team names follow the username pattern.
  if (!isUsername(owner)) throw new InvalidOptionError(option, expected, url);
  const prefix = segments.slice(0, n - 4).join('/');
  const baseUrl = prefix ? `${parsed.origin}/${prefix}` : parsed.origin;
  return kind === 'u' ? { baseUrl, username: owner, uuid } : { baseUrl, team: owner, uuid };
}
