// Screenshots of the web console for docs/receiver.md, "Web console": a receiver seeded with
// the demo's account and resources and a few hundred realistic records, driven by playwright
// in Debian's Chromium. Only 127.0.0.1 traffic.
//   node scripts/console-screenshots.ts            → docs/images/console-*.png
//   node scripts/console-screenshots.ts <outDir>
// It runs the receiver from source: module hooks map the sources' `.js` imports to `.ts` and
// compile them with esbuild (they use TypeScript that type stripping alone cannot run).
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { registerHooks } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/harness/chromium.ts';
import { buildConsole } from './build-console.ts';

const SOURCES = new URL('../src/', import.meta.url).href;
registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context);
    } catch (error) {
      if (specifier.startsWith('.') && specifier.endsWith('.js')) {
        return next(`${specifier.slice(0, -3)}.ts`, context);
      }
      throw error;
    }
  },
  load(url, context, next) {
    if (!url.startsWith(SOURCES) || !url.endsWith('.ts')) return next(url, context);
    const path = fileURLToPath(url);
    const { code } = transformSync(readFileSync(path, 'utf8'), {
      loader: 'ts',
      format: 'esm',
      target: 'node22',
      sourcefile: path,
    });
    return { format: 'module', source: code, shortCircuit: true };
  },
});
const { buildReceiver } = (await import(
  '../src/receiver/index.ts'
)) as typeof import('../src/receiver/index.ts');

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = resolve(process.argv[2] ?? join(ROOT, 'docs/images'));
const seed = JSON.parse(readFileSync(join(ROOT, 'examples/demo-seed.json'), 'utf8')) as {
  resources: { uuid: string; key: string }[];
};
const KEY = 'demo-dev-key-0000000001';
const uuid = (key: string) => seed.resources.find((r) => r.key === key)?.uuid ?? '';

await buildConsole();
const app = buildReceiver({ seed, logger: false });
const url = await app.listen({ host: '127.0.0.1', port: 0 });

async function api(method: string, path: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
}

/** A seeded pseudo-random sequence, so every run draws the same records. */
function random(seedValue: number) {
  let state = seedValue;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}
const rand = random(42);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
const hex = (length: number) =>
  Array.from({ length }, () => Math.floor(rand() * 16).toString(16)).join('');

const ROUTES = ['/api/cart', '/api/checkout', '/api/orders/{id}', '/api/payments', '/healthz'];
const SERVICES = {
  'checkout-api': {
    resource: {
      'service.name': 'checkout-api',
      'service.version': '2.14.1',
      'deployment.environment': 'staging',
      'host.name': 'checkout-7f9c4',
    },
    make(i: number) {
      const route = pick(ROUTES);
      const status = pick([200, 200, 200, 201, 204, 400, 404, 502]);
      const order = `ORD-${String(10_400 + i)}`;
      if (i % 37 === 5) {
        return {
          level: 'error',
          logger: 'payments.gateway',
          message: `payment authorisation failed for ${order}: upstream timed out after 5000 ms`,
          attributes: {
            'http.route': '/api/payments',
            'payment.provider': 'acme-pay',
            retryable: true,
          },
          extra: { order_id: order, amount: { value: 129.9, currency: 'EUR' }, attempt: 3 },
        };
      }
      if (i % 53 === 11) {
        return {
          level: 'alert',
          logger: 'payments.gateway',
          message: 'payment provider error rate above 5% for 2 minutes',
          attributes: { 'payment.provider': 'acme-pay', error_rate: 0.071 },
        };
      }
      if (status >= 500) {
        return {
          level: 'warning',
          logger: 'http.server',
          message: `POST ${route} answered ${status} in ${Math.round(800 + rand() * 4000)} ms`,
          attributes: {
            'http.request.method': 'POST',
            'http.route': route,
            'http.response.status_code': status,
          },
        };
      }
      return {
        level: pick(['info', 'info', 'info', 'debug']),
        logger: pick(['http.server', 'cart', 'orders']),
        message: `${pick(['GET', 'POST'])} ${route} ${status} ${Math.round(4 + rand() * 120)} ms`,
        attributes: {
          'http.route': route,
          'http.response.status_code': status,
          'user.id': `u_${hex(6)}`,
        },
        extra:
          route === '/api/checkout'
            ? { order_id: order, items: 1 + Math.floor(rand() * 4) }
            : undefined,
      };
    },
  },
  'billing-worker': {
    resource: {
      'service.name': 'billing-worker',
      'service.version': '0.9.3',
      'host.name': 'billing-1',
    },
    make(i: number) {
      if (i % 29 === 7) {
        return {
          level: 'error',
          logger: 'worker.invoices',
          message: `invoice INV-${7000 + i} could not be rendered: template "eu-vat" missing field "vat_id"`,
          extra: { invoice: `INV-${7000 + i}`, customer: `cus_${hex(8)}` },
        };
      }
      return {
        level: pick(['info', 'info', 'debug', 'warning']),
        logger: pick(['worker.queue', 'worker.invoices', 'db.pool']),
        message: pick([
          `processed batch of ${Math.floor(rand() * 200)} invoices in ${Math.round(rand() * 900)} ms`,
          `queue depth ${Math.floor(rand() * 40)}, ${Math.floor(rand() * 4)} workers busy`,
          'connection pool at 80% (16/20)',
        ]),
      };
    },
  },
  'edge-host': {
    resource: {
      'service.name': 'edge-host',
      'host.name': 'edge-fra-2',
      'cloud.region': 'eu-central-1',
    },
    make() {
      return {
        level: pick(['info', 'info', 'warning', 'debug', 'level 25']),
        logger: pick(['nginx', 'certbot', 'systemd']),
        message: pick([
          'upstream checkout-api responded slowly (1.8 s)',
          'certificate for shop.example renews in 21 days',
          'reloaded configuration',
          'client closed connection while waiting for request',
        ]),
      };
    },
  },
} as const;

// About 40 minutes of traffic, oldest first, each record with trace context where it has one.
const now = Date.now();
for (const [key, service] of Object.entries(SERVICES)) {
  const logs = [];
  const count = key === 'checkout-api' ? 240 : 90;
  for (let i = 0; i < count; i += 1) {
    const record = service.make(i) as Record<string, unknown>;
    logs.push({
      ts: new Date(now - (count - i) * 10_000 - Math.floor(rand() * 5000)).toISOString(),
      ...record,
      ...(key === 'checkout-api' ? { trace_id: hex(32), span_id: hex(16) } : {}),
    });
  }
  await api('POST', `/u/demo/resources/${uuid(key)}/logs/`, {
    sdk: 'reslog',
    sdk_version: '0.1.0',
    resource: service.resource,
    logs,
  });
}
await api('PUT', `/api/resources/${uuid('checkout-api')}/health`, {
  state: 'degraded',
  reason: 'payment provider timing out',
});
await api('PUT', `/api/resources/${uuid('checkout-api')}/health`, {
  state: 'healthy',
  reason: 'payment provider recovered',
});
await api('PUT', `/api/resources/${uuid('billing-worker')}/health`, {
  state: 'degraded',
  reason: 'invoice backlog above 500',
});
await api('PUT', `/api/resources/${uuid('edge-host')}/health`, {
  state: 'healthy',
  reason: 'serving',
});

const profile = await mkdtemp(join(tmpdir(), 'reslog-screenshots-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  args: CHROMIUM_ARGS,
  headless: true,
  viewport: { width: 1360, height: 820 },
});
await context.route('**/*', (route) =>
  route.request().url().startsWith(`${url}/`) ? route.continue() : route.abort(),
);
try {
  await mkdir(OUT, { recursive: true });
  const page: Page = await context.newPage();
  await page.goto(`${url}/`);
  await page.locator('input[name="secret"]').fill(KEY);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('table.resources tbody tr').nth(2).waitFor();
  await page.screenshot({ path: join(OUT, 'console-resources.png') });

  await page.goto(`${url}/#/r/${uuid('checkout-api')}/logs`);
  await page.locator('[data-live="live"]').waitFor();
  await page.locator('select[name="level"]').selectOption('warning');
  await page.locator('input[name="logger"]').fill('payments.gateway');
  await page.locator('input[name="logger"]').press('Enter');
  await page.locator('table.logs tbody tr .level-alert').first().waitFor();
  await page.screenshot({ path: join(OUT, 'console-logs-filtered.png') });

  await page.locator('select[name="level"]').selectOption('error');
  await page.locator('table.logs tbody tr', { hasText: 'authorisation failed' }).first().click();
  await page.getByRole('complementary', { name: 'Record detail' }).waitFor();
  // Tall enough for the detail's extra, attributes and resource.
  await page.setViewportSize({ width: 1360, height: 1240 });
  await page.screenshot({ path: join(OUT, 'console-record-detail.png') });

  await page.setViewportSize({ width: 1360, height: 820 });
  await page.goto(`${url}/#/r/${uuid('checkout-api')}/health`);
  await page.getByText('payment provider recovered').waitFor();
  await page.screenshot({ path: join(OUT, 'console-health.png') });
  console.log(`screenshots written to ${OUT}`);
} finally {
  await context.close();
  await app.close();
  await rm(profile, { recursive: true, force: true });
}
