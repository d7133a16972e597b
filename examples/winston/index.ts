// A winston app through @opentelemetry/winston-transport: the transport turns winston entries
// into OpenTelemetry log records on the global LoggerProvider, whose processor holds reslog.
import { logs as logsApi } from '@opentelemetry/api-logs';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { OpenTelemetryTransportV3 } from '@opentelemetry/winston-transport';
import { ResourceLogExporter } from 'reslog';
import winston from 'winston';

const exporter = new ResourceLogExporter(); // RESLOG_* environment variables
const provider = new LoggerProvider({
  resource: resourceFromAttributes({
    'service.name': process.env.SERVICE_NAME ?? 'winston-example',
  }),
  processors: [new BatchLogRecordProcessor({ exporter })],
});
// winston-transport 0.34 reads the provider through @opentelemetry/api-logs' global.
logsApi.setGlobalLoggerProvider(provider);

const log = winston.createLogger({
  level: 'debug',
  transports: [new winston.transports.Console(), new OpenTelemetryTransportV3()],
});
log.debug('cache warmed', { entries: 512 });
log.info('invoice created', { invoiceId: 'inv-77', amount: 42.5 });
log.error('invoice email bounced', { invoiceId: 'inv-77', smtpCode: 550 });

await provider.shutdown();
console.log(`winston: exported ${exporter.getStats().exported}`);
