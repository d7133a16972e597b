import { authHeaders, type Credential } from './credential.ts';

/** An error answer of the receiver (`{"error": {code, message}}`) or a failed request. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export type Query = Record<string, string | number | undefined>;

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

export async function errorOf(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string } };
    return new ApiError(
      response.status,
      body.error?.code ?? 'http_error',
      body.error?.message ?? `HTTP ${response.status}`,
    );
  } catch {
    return new ApiError(response.status, 'http_error', `HTTP ${response.status}`);
  }
}

/** The receiver's API as the signed-in credential: JSON in, JSON out, errors as ApiError. */
export interface ApiClient {
  readonly credential: Credential;
  /** Absolute path under the service's prefix. */
  url(path: string, query?: Query): string;
  headers(): Record<string, string>;
  get<T>(path: string, query?: Query, signal?: AbortSignal): Promise<T>;
  send<T>(method: 'POST' | 'PUT', path: string, body?: unknown): Promise<T>;
}

/** `base` is the service's path prefix (api-base.ts), '' without one. */
export function createApiClient(credential: Credential, base: string): ApiClient {
  const headers = () => ({ accept: 'application/json', ...authHeaders(credential) });
  const request = async <T>(path: string, init: RequestInit): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(path, { ...init, cache: 'no-store', credentials: 'omit' });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new ApiError(0, 'network_error', 'the receiver did not answer');
    }
    if (!response.ok) throw await errorOf(response);
    return (await response.json()) as T;
  };
  return {
    credential,
    url: (path, query) => withQuery(`${base}${path}`, query),
    headers,
    get(path, query, signal) {
      return request(withQuery(`${base}${path}`, query), {
        headers: headers(),
        ...(signal ? { signal } : {}),
      });
    },
    send(method, path, body) {
      return request(`${base}${path}`, {
        method,
        headers: { ...headers(), 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
    },
  };
}
