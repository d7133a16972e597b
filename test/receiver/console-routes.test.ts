import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsole } from '../../scripts/build-console.ts';
import { CONSOLE_CSP, consoleRoutes } from '../../src/receiver/http/routes/console-routes.js';
import { receiver } from './fixtures.js';

let assetsDir: string;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  assetsDir = mkdtempSync(join(tmpdir(), 'reslog-console-'));
  await buildConsole(assetsDir);
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  rmSync(assetsDir, { recursive: true, force: true });
});

/** A receiver whose console serves `folder` (the built assets unless told otherwise). */
function withConsole(folder = assetsDir, pathPrefix = '') {
  const app = receiver({ console: false, pathPrefix });
  app.register(consoleRoutes, { pathPrefix, assetsUrl: pathToFileURL(`${folder}/`) });
  apps.push(app);
  return app;
}

function expectHardened(headers: Record<string, unknown>) {
  expect(headers['content-security-policy']).toBe(CONSOLE_CSP);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
}

describe('web console routes', () => {
  it('serves the page at / with a CSP that allows no inline script or style', async () => {
    const response = await withConsole().inject({ url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expectHardened(response.headers);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.body).toContain('<script type="module" src="/console/console.js">');
    // No inline script or style in the page itself.
    expect(response.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(response.body).not.toMatch(/<style|\sstyle=/);
  });

  it('serves the script and stylesheet with their types, an ETag and revalidation', async () => {
    const app = withConsole();
    for (const [url, type] of [
      ['/console/console.js', 'text/javascript; charset=utf-8'],
      ['/console/console.css', 'text/css; charset=utf-8'],
    ] as const) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toBe(type);
      expect(response.headers['cache-control']).toBe('no-cache');
      expectHardened(response.headers);
      const etag = String(response.headers.etag);
      const again = await app.inject({ url, headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    }
  });

  it('tells the page the path prefix its API calls go under, and stays at the root', async () => {
    const app = withConsole(assetsDir, '/DevTools');
    const response = await app.inject({ url: '/' });
    expect(response.body).toContain('<meta name="reslog-api-base" content="/DevTools"');
    expect((await app.inject({ url: '/DevTools/' })).statusCode).toBe(404);
  });

  it('answers 503 console_unavailable when the assets were not built', async () => {
    const missing = join(assetsDir, 'not-built');
    const response = await withConsole(missing).inject({ url: '/' });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('console_unavailable');
    expect(response.json().error.message).toContain('npm run build');
    expectHardened(response.headers);
  });

  it('is a 404 like any unknown path with console: false', async () => {
    const app = receiver({ console: false });
    apps.push(app);
    const response = await app.inject({ url: '/' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
  });

  it('leaves the API and its headers alone', async () => {
    const app = withConsole();
    const response = await app.inject({ url: '/api/me', headers: { 'x-api-key': 'nope' } });
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-security-policy']).toBeUndefined();
  });
});
