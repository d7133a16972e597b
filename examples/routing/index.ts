// One exporter configuration, deployed unchanged to several services: each record finds its
// resource by `service.name` rules, by a resource key in the static `resourceKeys` map, or by
// a key the receiver resolves (GET /u/{username}/resources/by-key/{key}, cached).
// Environment: RESLOG_BASE_URL, RESLOG_API_KEY, RESLOG_USERNAME.
import { SeverityNumber } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { ResourceLogExporter, type ResourceLogExporterOptions } from 'reslog';

/** The shared configuration, e.g. from a common package of your organisation. */
const routing: ResourceLogExporterOptions = {
  routes: [
    // By rule: the checkout service goes to the resource whose key is checkout-api, which the
    // receiver turns into a UUID on first use.
    { match: { 'service.name': 'checkout' }, key: 'checkout-api' },
    // Any billing worker (billing-worker-1, billing-worker-2, ...) by pattern and environment.
    {
      match: { 'service.name': /^billing-worker(-\d+)?$/, 'deployment.environment': 'prod' },
      key: 'billing-worker',
    },
    // Hosts whose name starts with edge-, by predicate.
    {
      match: { 'host.name': (name) => typeof name === 'string' && name.startsWith('edge-') },
      key: 'edge-host',
    },
  ],
  // Keys known up front need no lookup.
  resourceKeys: { 'billing-worker': 'c0ffee00-2222-4aaa-8bbb-000000000002' },
};

const services = [
  { 'service.name': 'checkout' },
  { 'service.name': 'billing-worker-2', 'deployment.environment': 'prod' },
  { 'service.name': 'nginx', 'host.name': 'edge-7' },
  { 'service.name': 'unrouted-batch-job' },
];

let exported = 0;
let unmapped = 0;
for (const attributes of services) {
  const exporter = new ResourceLogExporter(routing);
  const provider = new LoggerProvider({
    resource: resourceFromAttributes(attributes),
    processors: [new BatchLogRecordProcessor({ exporter })],
  });
  const logger = provider.getLogger('example.routing');
  logger.emit({
    severityNumber: SeverityNumber.INFO,
    body: `hello from ${attributes['service.name']}`,
  });
  await provider.shutdown();
  const stats = exporter.getStats();
  exported += stats.exported;
  unmapped += stats.dropped.unmapped;
}
// The batch job matches no rule and there is no default resource: it is dropped and counted
// (unmapped: 'drop'), which does not fail the export.
console.log(`routing: exported ${exported}, unmapped ${unmapped}`);
