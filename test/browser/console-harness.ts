import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { buildReceiver, type ReceiverOptions } from '../../src/receiver/index.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../harness/chromium.ts';

const run = promisify(execFile);

/** A receiver listening on 127.0.0.1 and a fresh Chromium profile that only talks to it. */
export interface ConsoleHarness {
  app: FastifyInstance;
  url: string;
  context: BrowserContext;
  /** Requests the page tried to send anywhere but the receiver (aborted). */
  foreignRequests: string[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export async function startHarness(
  seed: unknown,
  adminToken: string,
  options: ReceiverOptions = {},
): Promise<ConsoleHarness> {
  const app = buildReceiver({ seed, adminToken, logger: false, ...options });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const profile = mkdtempSync(join(tmpdir(), 'reslog-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    timeout: 30_000,
    viewport: { width: 1400, height: 900 },
  });
  context.setDefaultTimeout(10_000);
  const foreignRequests: string[] = [];
  await context.route('**/*', (route) => {
    const target = route.request().url();
    if (target.startsWith(`${url}/`) || target.startsWith('data:')) return route.continue();
    foreignRequests.push(target);
    return route.abort();
  });
  return {
    app,
    url,
    context,
    foreignRequests,
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      await app.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Opens the console and signs in with an API key (or the admin token). */
export async function signIn(
  page: Page,
  url: string,
  secret: string,
  kind: 'key' | 'admin' = 'key',
) {
  await page.goto(`${url}/`);
  if (kind === 'admin') await page.getByLabel('the admin token').check();
  await page.locator('input[name="secret"]').fill(secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** POSTs records with the curl binary, as a user at a shell would; resolves on the 202. */
export async function curlIngest(
  url: string,
  path: string,
  key: string,
  body: unknown,
): Promise<{ accepted: number }> {
  const { stdout } = await run(
    '/usr/bin/curl',
    [
      '--silent',
      '--show-error',
      '--fail-with-body',
      '--max-time',
      '10',
      '-H',
      'content-type: application/json',
      '-H',
      `x-api-key: ${key}`,
      '--data-binary',
      JSON.stringify(body),
      `${url}${path}`,
    ],
    { timeout: 15_000 },
  );
  return JSON.parse(stdout) as { accepted: number };
}
