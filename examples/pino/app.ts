// A plain pino app: nothing here knows about OpenTelemetry. instrumentation.ts makes every
// pino call also an OpenTelemetry log record, which ResourceLogExporter ships.
import pino from 'pino';

const log = pino({ name: 'checkout' });
log.info({ orderId: 1042 }, 'order received');
log.warn({ orderId: 1042, attempt: 2 }, 'payment retry');
log.error({ orderId: 1042, err: new Error('card declined') }, 'payment failed');
