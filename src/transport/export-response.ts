import type { ReslogError } from '../errors.js';

/**
 * What one HTTP exchange came to. A transport resolves to this and never throws, so callers
 * decide with a switch instead of try/catch (opentelemetry-js `export-response.ts`).
 */
export type ExportResponse =
  | { readonly status: 'success'; readonly statusCode: number; readonly json: unknown }
  | { readonly status: 'failure'; readonly statusCode: number; readonly error: ReslogError }
  | {
      readonly status: 'retryable';
      /** 0 when there was no HTTP answer at all. */
      readonly statusCode: number;
      readonly error: ReslogError;
      readonly retryAfterMillis?: number;
    };

export interface HttpRequest {
  readonly method: 'GET' | 'POST';
  /** Path below the base URL's origin, including any base path prefix. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
}

export interface Transport {
  /** Sends one request; gives up at `deadline` (epoch milliseconds). */
  send(request: HttpRequest, deadline: number): Promise<ExportResponse>;
  close(): Promise<void>;
}
