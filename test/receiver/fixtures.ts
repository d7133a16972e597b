import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildReceiver, type ReceiverOptions } from '../../src/receiver/index.js';

/** examples/seed.json: alice owns checkout (bob editor, carol viewer) and billing; bob owns one. */
export const SEED = JSON.parse(
  readFileSync(new URL('../../examples/seed.json', import.meta.url), 'utf8'),
) as unknown;

export const CHECKOUT = '6f1d2c3b-8a4e-4f5a-9b6c-7d8e9f0a1b2c';
export const BILLING = '0b7c5a2e-1d3f-4e6a-8b9c-0d1e2f3a4b5c';
export const BOB_PRIVATE = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
export const KEYS = {
  alice: 'alice-dev-key-0000000001',
  bob: 'bob-dev-key-0000000001',
  carol: 'carol-dev-key-0000000001',
  mallory: 'mallory-dev-key-0000000001',
} as const;
export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export const ingestPath = (uuid = CHECKOUT, owner = 'alice') =>
  `/u/${owner}/resources/${uuid}/logs/`;

export function receiver(options: ReceiverOptions = {}): FastifyInstance {
  return buildReceiver({ seed: SEED, adminToken: ADMIN_TOKEN, ...options });
}

export interface PostOptions {
  key?: string | undefined;
  path?: string;
  headers?: Record<string, string>;
  gzip?: boolean;
}

/** POSTs a JSON body to the ingest route with alice's key unless told otherwise. */
export function post(app: FastifyInstance, body: unknown, options: PostOptions = {}) {
  const json = typeof body === 'string' ? body : JSON.stringify(body);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(options.gzip ? { 'content-encoding': 'gzip' } : {}),
    ...options.headers,
  };
  const key = 'key' in options ? options.key : KEYS.alice;
  if (key !== undefined) headers['x-api-key'] = key;
  return app.inject({
    method: 'POST',
    url: options.path ?? ingestPath(),
    headers,
    payload: options.gzip ? gzipSync(json) : json,
  });
}

export async function readLogs(
  app: FastifyInstance,
  query = '',
  { uuid = CHECKOUT, owner = 'alice', key = KEYS.alice as string } = {},
) {
  const response = await app.inject({
    method: 'GET',
    url: `/u/${owner}/resources/${uuid}/logs/${query}`,
    headers: { 'x-api-key': key },
  });
  return response;
}

export const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
