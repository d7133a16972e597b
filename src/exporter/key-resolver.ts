import { type Owner, ownerLabel, ownerPath } from '../config/owner.js';
import { normalizeUuid } from '../contract/identifiers.js';
import { KeyLookupError, type ReslogError } from '../errors.js';
import type { Transport } from '../transport/export-response.js';

export interface KeyResolver {
  /** The UUID of `owner`'s resource `key`, or the error that kept it from being found. */
  resolve(owner: Owner, key: string, deadline: number): Promise<string | ReslogError>;
}

export interface KeyResolverOptions {
  readonly staticKeys: ReadonlyMap<string, string>;
  /** Path prefix of the base URL ('' or '/prefix'). */
  readonly pathPrefix: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly transport: Transport;
  readonly onLookupFailed: (error: ReslogError) => void;
}

/**
 * Turns resource keys into UUIDs: the static `resourceKeys` map first, then
 * `GET /u/{username}/resources/by-key/{key}` (or `/team/{team}/…`). Found UUIDs are cached for the exporter's life
 * (a resource's key→UUID binding changes only when an owner renames keys); failures are not,
 * so the next export asks again. Concurrent lookups of one key share one request.
 */
export function createKeyResolver(options: KeyResolverOptions): KeyResolver {
  const found = new Map<string, string>();
  const inFlight = new Map<string, Promise<string | ReslogError>>();

  const lookup = async (owner: Owner, key: string, deadline: number) => {
    const path = `${options.pathPrefix}/${ownerPath(owner)}/resources/by-key/${encodeURIComponent(key)}`;
    const response = await options.transport.send(
      { method: 'GET', path, headers: options.headers },
      deadline,
    );
    if (response.status === 'success') {
      const uuid = normalizeUuid((response.json as { uuid?: unknown } | undefined)?.uuid);
      if (uuid) return uuid;
      return new KeyLookupError(key, `lookup of resource key "${key}" returned no uuid`);
    }
    return new KeyLookupError(
      key,
      `lookup of resource key "${key}" of ${ownerLabel(owner)} failed: ${response.error.message}`,
      response.error,
    );
  };

  return {
    async resolve(owner, key, deadline) {
      const fixed = options.staticKeys.get(key);
      if (fixed) return fixed;
      const cacheKey = `${ownerLabel(owner)}/${key}`;
      const cached = found.get(cacheKey);
      if (cached) return cached;
      let pending = inFlight.get(cacheKey);
      if (!pending) {
        pending = lookup(owner, key, deadline).then((result) => {
          inFlight.delete(cacheKey);
          if (typeof result === 'string') found.set(cacheKey, result);
          else options.onLookupFailed(result);
          return result;
        });
        inFlight.set(cacheKey, pending);
      }
      return pending;
    },
  };
}
