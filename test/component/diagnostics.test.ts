import { type DiagLogger, DiagLogLevel, diag } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKOUT } from '../helpers/component.js';
import { type IngestServer, startIngestServer } from '../helpers/ingest-server.js';
import { PIPELINES } from '../helpers/pipelines.js';
import { exportOnce, logRecord } from '../helpers/records.js';

const API_KEY = 'alice-secret-key-0000000042';

function collectingLogger() {
  const lines: { level: string; message: string }[] = [];
  const at =
    (level: string) =>
    (message: string, ...args: unknown[]) =>
      lines.push({ level, message: [message, ...args.map(String)].join(' ') });
  const logger: DiagLogger = {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    verbose: at('verbose'),
  };
  return { lines, logger };
}

let server: IngestServer;
afterEach(async () => {
  diag.disable();
  await server?.close();
});

describe.each(PIPELINES)('$name', ({ create }) => {
  describe('diagnostics', () => {
    it('go through diag, one line per problem and target per interval, never with the API key', async () => {
      const { lines, logger } = collectingLogger();
      diag.setLogger(logger, { logLevel: DiagLogLevel.ALL, suppressOverrideMessage: true });
      server = await startIngestServer(() => ({
        status: 401,
        body: { error: { code: 'unauthorized', message: `unknown key ${API_KEY}` } },
      }));
      const exporter = create({
        baseUrl: server.url,
        apiKey: API_KEY,
        username: 'alice',
        resource: CHECKOUT,
      });
      for (let i = 0; i < 6; i++) await exportOnce(exporter, [logRecord()]);
      await exporter.shutdown();

      // Two problems: the service's refusals, then the circuit breaker holding records back
      // (a drop reason of its own, circuit_open); each is one line however often it happens.
      const about = lines.filter((l) => l.message.includes('reslog'));
      expect(about).toHaveLength(2);
      expect(about[0]).toMatchObject({ level: 'warn' });
      expect(about[0]?.message).toMatch(
        /dropped 1 record\(s\) for alice\/6f1d.*rejected.*401 unauthorized/,
      );
      expect(about[1]).toMatchObject({ level: 'warn' });
      expect(about[1]?.message).toMatch(
        /dropped 1 record\(s\) for alice\/6f1d.*circuit_open.*paused for \d+ s/,
      );
      expect(lines.map((l) => l.message).join('\n')).not.toContain(API_KEY);
    });
  });
});
