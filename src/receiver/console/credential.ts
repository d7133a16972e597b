/**
 * Who the console acts as (docs/receiver.md, "Web console"): an API key, sent as `X-API-Key`,
 * or the control plane's admin token, sent as `Authorization: Bearer`. Kept in
 * sessionStorage only (gone when the tab closes), never in a URL.
 */
export interface Credential {
  kind: 'key' | 'admin';
  secret: string;
}

const STORAGE_KEY = 'reslog.console.credential';

export function loadCredential(): Credential | undefined {
  try {
    const value = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as unknown;
    if (
      typeof value === 'object' &&
      value !== null &&
      ((value as Credential).kind === 'key' || (value as Credential).kind === 'admin') &&
      typeof (value as Credential).secret === 'string'
    ) {
      return value as Credential;
    }
  } catch {
    // an unreadable entry is the same as none
  }
  return undefined;
}

export function saveCredential(credential: Credential): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(credential));
}

export function clearCredential(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}

/** The request headers that carry a credential. */
export function authHeaders(credential: Credential): Record<string, string> {
  return credential.kind === 'key'
    ? { 'x-api-key': credential.secret }
    : { authorization: `Bearer ${credential.secret}` };
}
