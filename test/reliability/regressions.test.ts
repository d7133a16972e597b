import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKOUT, KEYS, post, readLogs, receiver } from '../receiver/fixtures.js';

/**
 * Bugs the reliability suite found (docs/reliability.md, "Bugs this suite found"), each pinned
 * by its own test.
 */
describe('regressions found by the reliability suite', () => {
  let app: FastifyInstance;
  afterEach(() => app?.close());

  const otlp = (body: unknown) =>
    app.inject({
      method: 'POST',
      url: `/u/alice/resources/${CHECKOUT}/v1/logs`,
      headers: { 'x-api-key': KEYS.alice, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });

  it('a ts beyond the 64-bit nanosecond range is rejected as invalid_ts, not answered 500', async () => {
    app = receiver();
    const response = await post(app, {
      logs: [
        { ts: '9999-12-31T23:59:59.999999999Z', message: 'far future' },
        { ts: '1600-01-01T00:00:00Z', message: 'far past' },
        { observed_ts: '2300-01-01T00:00:00Z', message: 'observed far future' },
        { ts: '2262-04-11T23:47:16.854775807Z', message: 'last storable instant' },
      ],
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({
      accepted: 1,
      rejected: 3,
      errors: [
        { index: 0, code: 'invalid_ts' },
        { index: 1, code: 'invalid_ts' },
        { index: 2, code: 'invalid_observed_ts' },
      ],
    });
    const logs = (await readLogs(app)).json().logs;
    expect(logs.map((l: { ts: string }) => l.ts)).toEqual(['2262-04-11T23:47:16.854775807Z']);
  });

  it('a ts in the years 0000–0099 is rejected, not stored as 1900–1999', async () => {
    app = receiver();
    const response = await post(app, { logs: [{ ts: '0001-01-01T00:00:00Z', message: 'x' }] });
    expect(response.json()).toMatchObject({ accepted: 0, errors: [{ code: 'invalid_ts' }] });
    expect((await readLogs(app)).json().logs).toEqual([]);
  });

  it('OTLP: a non-string severityText, malformed AnyValue lists and a 2^64 timeUnixNano store without a 500', async () => {
    app = receiver();
    const response = await otlp({
      resourceLogs: [
        {
          resource: { attributes: 5 },
          scopeLogs: [
            {
              logRecords: [
                { severityText: true, body: { stringValue: 'bool severity' } },
                { body: { arrayValue: { values: 'not a list' } }, attributes: 7 },
                { body: { kvlistValue: { values: 42 } } },
                { timeUnixNano: (2n ** 64n).toString(), body: { stringValue: 'huge ts' } },
              ],
            },
          ],
        },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const logs = (await readLogs(app, '?order=asc')).json().logs;
    expect(logs.map((l: { message: string }) => l.message)).toEqual([
      'bool severity',
      '[]',
      '{}',
      'huge ts',
    ]);
    expect(logs[0].level).toBe('info');
  });

  it('OTLP: an intValue that is an object (even one without toString) is null, not a 500', async () => {
    app = receiver();
    const response = await otlp({
      resourceLogs: [
        {
          resource: {
            attributes: [{ key: 'a', value: { intValue: [{ toString: null }] } }],
          },
          scopeLogs: [{ logRecords: [{ body: { intValue: { toString: null } } }] }],
        },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const [log] = (await readLogs(app)).json().logs;
    expect(log.message).toBe('');
    expect(log.resource).toEqual({ a: null });
  });
});
