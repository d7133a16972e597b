/**
 * `node bench/gzip-levels.ts` (after `npm run build`): CPU and compressed bytes per record of
 * gzip at zlib levels 1–6, on request bodies as reslog's processor builds them from records
 * shaped like scenario 7's (10 per order: the same messages and attributes as
 * bench/service-app.ts). The bodies are captured by an in-process server; then each level
 * compresses all of them 5 times, synchronously on this thread, so `process.cpuUsage()` is
 * the deflate alone. docs/performance.md, "Compression level", quotes it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { LoggerProvider } from '@opentelemetry/sdk-logs';
import { loadReslog } from './package-under-test.ts';
import {
  BENCH_API_KEY,
  BENCH_RESOURCE_UUID,
  BENCH_USERNAME,
  RESOURCE_ATTRIBUTES,
  SCOPE,
} from './records.ts';

const ORDERS = 2000;
const RECORDS = ORDERS * 10;
const bodies: Buffer[] = [];
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    bodies.push(Buffer.concat(chunks));
    response.writeHead(202, { 'content-type': 'application/json' });
    response.end('{"accepted":1,"rejected":0,"errors":[]}');
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

const { ResourceLogProcessor } = await loadReslog();
const processor = new ResourceLogProcessor({
  baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  apiKey: BENCH_API_KEY,
  username: BENCH_USERNAME,
  resource: BENCH_RESOURCE_UUID,
  compression: 'none',
});
const provider = new LoggerProvider({
  resource: resourceFromAttributes({ ...RESOURCE_ATTRIBUTES }),
  processors: [processor],
});
const logger = provider.getLogger(SCOPE.name, SCOPE.version);
const info = (body: string, attributes: Record<string, string | number | boolean>) =>
  logger.emit({ severityNumber: 9, severityText: 'INFO', body, attributes });
const debug = (body: string, attributes: Record<string, string | number | boolean>) =>
  logger.emit({ severityNumber: 5, severityText: 'DEBUG', body, attributes });

for (let o = 0; o < ORDERS; o++) {
  const id = 100_000 + o;
  const customer = `c-${o % 977}`;
  const route = { 'http.route': '/orders/:id', 'order.id': id };
  info(`received order ${id} via api`, {
    ...route,
    'http.request.method': 'POST',
    'http.request.body.size': 180 + (o % 40),
  });
  debug(`cart parsed: 3 items for customer ${customer}`, { ...route, 'user.id': customer });
  let total = 0;
  for (let i = 0; i < 3; i++) {
    const sku = `SKU-${(o * 7 + i) % 500}`;
    const price = 100 + ((o * 13 + i) % 9000);
    total += (i + 1) * price;
    debug(`priced ${sku}: ${i + 1} × ${price} = ${(i + 1) * price} EUR`, {
      ...route,
      sku,
      quantity: i + 1,
    });
  }
  const discount = o % 3 === 0 ? Math.round(total * 0.1) : 0;
  info(discount ? `coupon SAVE${o % 50} applied` : 'no coupon applied', {
    ...route,
    'discount.cents': discount,
  });
  info(`order total ${total - discount} EUR after ${discount} discount`, {
    ...route,
    'order.total_cents': total - discount,
    currency: 'EUR',
  });
  info('inventory reserved for 3 lines', { ...route, warehouse: 'eu-west-1' });
  info(`payment authorized for customer ${customer}`, {
    ...route,
    'user.id': customer,
    'payment.provider': 'card',
    ok: true,
  });
  info(`order ${id} accepted in ${(0.1 + (o % 50) / 100).toFixed(3)} ms`, {
    ...route,
    'http.response.status_code': 200,
    'http.response.body.size': 120,
  });
}
await provider.shutdown();
server.close();

const plain = bodies.reduce((sum, body) => sum + body.length, 0);
console.log(
  `${RECORDS} records in ${bodies.length} bodies, ${(plain / RECORDS).toFixed(1)} bytes of JSON per record`,
);
console.log('| zlib level | CPU µs / record | gzip bytes / record |');
console.log('| --- | --- | --- |');
for (let level = 0; level <= 6; level++) {
  let zipped = 0;
  const before = process.cpuUsage();
  for (let pass = 0; pass < 5; pass++) {
    zipped = 0;
    for (const body of bodies) zipped += gzipSync(body, { level: Math.max(1, level) }).length;
  }
  const cpu = process.cpuUsage(before);
  // Level "0" is a discarded warm-up pass at level 1.
  if (level === 0) continue;
  console.log(
    `| ${level} | ${((cpu.user + cpu.system) / 5 / RECORDS).toFixed(3)} | ${(zipped / RECORDS).toFixed(1)} |`,
  );
}
