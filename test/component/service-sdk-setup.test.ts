import { afterEach, describe, expect, it, vi } from 'vitest';
import { BILLING, CHECKOUT, cleanUpAfterEach } from '../helpers/component.js';
import { type IngestServer, startIngestServer } from '../helpers/ingest-server.js';
import { PIPELINES, type Pipeline } from '../helpers/pipelines.js';
import { exportOnce, logRecord } from '../helpers/records.js';

const API_KEY = 'bob-secret-key-0000000002';

let server: IngestServer;
let exporter: Pipeline | undefined;
// After-hooks run in reverse order of registration: the shutdown first, then the reset.
afterEach(() => {
  exporter = undefined;
});
cleanUpAfterEach(() => ({ exporter, server }));

const ALSHIVAL = [
  'ALSHIVAL_RESOURCE',
  'ALSHIVAL_RESOURCE_URL',
  'ALSHIVAL_API_KEY',
  'ALSHIVAL_USERNAME',
  'ALSHIVAL_CLOUD_LEVEL',
];
const RESLOG = [
  'RESLOG_BASE_URL',
  'RESLOG_API_KEY',
  'RESLOG_USERNAME',
  'RESLOG_RESOURCE',
  'RESLOG_USER',
  'RESLOG_MIN_LEVEL',
  'RESLOG_COMPRESSION',
];

function clearEnv() {
  for (const name of [...ALSHIVAL, ...RESLOG]) vi.stubEnv(name, '');
}

const levels = [
  logRecord({ severityNumber: 5, body: 'debug' }),
  logRecord({ severityNumber: 9, body: 'info' }),
  logRecord({ severityNumber: 13, body: 'warning' }),
  logRecord({ severityNumber: 17, body: 'error' }),
  logRecord({ severityNumber: 22, severityText: 'ALERT', body: 'alert' }),
  logRecord({ severityNumber: 21, body: 'critical' }),
];

describe.each(PIPELINES)('$name', ({ create }) => {
  describe("an app set up for the service's own SDK switches with no new configuration", () => {
    it('reads ALSHIVAL_RESOURCE, ALSHIVAL_API_KEY, ALSHIVAL_USERNAME and ALSHIVAL_CLOUD_LEVEL', async () => {
      server = await startIngestServer();
      clearEnv();
      vi.stubEnv('ALSHIVAL_RESOURCE', `${server.url}/u/alice/resources/${CHECKOUT}/`);
      vi.stubEnv('ALSHIVAL_API_KEY', API_KEY);
      vi.stubEnv('ALSHIVAL_USERNAME', 'bob');
      vi.stubEnv('ALSHIVAL_CLOUD_LEVEL', 'ERROR');
      exporter = create({});

      const result = await exportOnce(exporter, levels);
      expect(result.code).toBe(0);
      const [request] = server.ingests();
      expect(request?.path).toBe(`/u/alice/resources/${CHECKOUT}/logs/`);
      expect(request?.headers).toMatchObject({ 'x-api-key': API_KEY, 'x-user-username': 'bob' });
      // Below ERROR: filtered, not lost. alert ranks between error and critical.
      expect(request?.body.logs.map((l: { level: string }) => l.level)).toEqual([
        'error',
        'alert',
        'critical',
      ]);
      expect(exporter.getStats()).toMatchObject({
        exported: 3,
        filtered: 3,
        dropped: { rejected: 0, unmapped: 0 },
      });
    });

    it('reads ALSHIVAL_RESOURCE_URL too, and RESLOG_* wins where both are set', async () => {
      server = await startIngestServer();
      clearEnv();
      vi.stubEnv('ALSHIVAL_RESOURCE_URL', `${server.url}/u/alice/resources/${BILLING}/`);
      vi.stubEnv('ALSHIVAL_API_KEY', 'not-this-key');
      vi.stubEnv('ALSHIVAL_USERNAME', 'not-this-user');
      vi.stubEnv('ALSHIVAL_CLOUD_LEVEL', 'NONE');
      vi.stubEnv('RESLOG_API_KEY', API_KEY);
      vi.stubEnv('RESLOG_USER', 'bob');
      vi.stubEnv('RESLOG_MIN_LEVEL', 'alert');
      exporter = create({});

      await exportOnce(exporter, levels);
      const [request] = server.ingests();
      expect(request?.path).toBe(`/u/alice/resources/${BILLING}/logs/`);
      expect(request?.headers).toMatchObject({ 'x-api-key': API_KEY, 'x-user-username': 'bob' });
      expect(request?.body.logs.map((l: { message: string }) => l.message)).toEqual([
        'alert',
        'critical',
      ]);
    });

    it('ALSHIVAL_CLOUD_LEVEL=NONE sends nothing and loses nothing', async () => {
      server = await startIngestServer();
      clearEnv();
      vi.stubEnv('ALSHIVAL_RESOURCE', `${server.url}/u/alice/resources/${CHECKOUT}/`);
      vi.stubEnv('ALSHIVAL_API_KEY', API_KEY);
      vi.stubEnv('ALSHIVAL_CLOUD_LEVEL', 'none');
      exporter = create({});
      expect((await exportOnce(exporter, levels)).code).toBe(0);
      expect(server.ingests()).toHaveLength(0);
      expect(exporter.getStats()).toMatchObject({ exported: 0, filtered: 6 });
    });
  });

  describe('team resources and the acting user', () => {
    it('posts to /team/<team>/resources/<uuid>/logs/ for a team resource URL, under the base prefix', async () => {
      server = await startIngestServer();
      clearEnv();
      exporter = create({
        resource: `${server.url}/DevTools/team/devops/resources/${CHECKOUT}/`,
        apiKey: API_KEY,
        user: 'bob',
      });
      await exportOnce(exporter, [logRecord()]);
      expect(server.ingests().map((r) => r.path)).toEqual([
        `/DevTools/team/devops/resources/${CHECKOUT}/logs/`,
      ]);
      expect(server.ingests()[0]?.headers['x-user-username']).toBe('bob');
      expect(exporter.getStats().targets).toHaveProperty([`team/devops/${CHECKOUT}`]);
    });

    it('routes by a rule that names a team, and looks its resource keys up under the team', async () => {
      server = await startIngestServer((request) =>
        request.method === 'GET'
          ? { status: 200, body: { uuid: BILLING, key: 'billing-api' } }
          : { status: 202, body: { accepted: 1, rejected: 0, request_id: 'r', errors: [] } },
      );
      clearEnv();
      exporter = create({
        baseUrl: server.url,
        apiKey: API_KEY,
        username: 'alice',
        routes: [
          { match: { 'service.name': 'checkout' }, resource: CHECKOUT, team: 'devops' },
          { match: { 'service.name': 'billing' }, key: 'billing-api', team: 'finance' },
        ],
      });
      await exportOnce(exporter, [
        logRecord(),
        logRecord({ resource: { attributes: { 'service.name': 'billing' } } }),
      ]);
      expect(server.requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
        `GET /team/finance/resources/by-key/billing-api`,
        `POST /team/devops/resources/${CHECKOUT}/logs/`,
        `POST /team/finance/resources/${BILLING}/logs/`,
      ]);
    });
  });

  describe('a misconfiguration is seen, not only counted', () => {
    it('warns once per target through process.emitWarning on the first 401, never showing the key', async () => {
      server = await startIngestServer(() => ({
        status: 401,
        body: { error: { code: 'invalid_api_key', message: 'API key is not valid' } },
      }));
      clearEnv();
      const emitWarning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      exporter = create({
        baseUrl: server.url,
        apiKey: API_KEY,
        username: 'alice',
        resource: CHECKOUT,
      });
      await exportOnce(exporter, [logRecord()]);
      await exportOnce(exporter, [logRecord()]);
      expect(emitWarning).toHaveBeenCalledTimes(1);
      const [message, options] = emitWarning.mock.calls[0] as [string, { code: string }];
      expect(message).toContain(`401 invalid_api_key for alice/${CHECKOUT}`);
      expect(message).toContain('check the API key');
      expect(message).not.toContain(API_KEY);
      expect(options).toMatchObject({ type: 'ReslogWarning', code: 'RESLOG_MISCONFIGURED' });
      expect(exporter.getStats().dropped.rejected).toBe(2);
    });

    it('a 404 invalid_resource is permanent, and its error says owner and UUID do not match', async () => {
      server = await startIngestServer(() => ({
        status: 404,
        body: { error: { code: 'invalid_resource', message: 'resource not found' } },
      }));
      clearEnv();
      vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      const drops: unknown[] = [];
      exporter = create({
        resource: `${server.url}/u/alice/resources/${CHECKOUT}/`,
        apiKey: API_KEY,
        onDrop: (event) => drops.push(event),
      });
      await exportOnce(exporter, [logRecord(), logRecord()]);
      expect(server.ingests()).toHaveLength(1);
      expect(drops).toEqual([
        expect.objectContaining({
          reason: 'rejected',
          count: 2,
          error: expect.objectContaining({
            statusCode: 404,
            serverCode: 'invalid_resource',
            message: expect.stringContaining(`owner "alice" and resource ${CHECKOUT} do not match`),
          }),
        }),
      ]);
    });
  });
});
