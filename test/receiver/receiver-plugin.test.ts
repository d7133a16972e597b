import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildReceiver, receiverPlugin } from '../../src/receiver/index.js';
import { ADMIN_TOKEN, CHECKOUT, ingestPath, KEYS, post, SEED } from './fixtures.js';

/** The receiver as a plugin in a host app of one's own (docs/receiver.md, "As a plugin"). */
describe('receiverPlugin', () => {
  let host: FastifyInstance | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  it('serves ingest, read-back and the control plane in a host app beside its own routes', async () => {
    host = Fastify();
    host.get('/host/ping', async () => ({ pong: true }));
    await host.register(receiverPlugin, { seed: SEED, adminToken: ADMIN_TOKEN });

    expect((await host.inject({ method: 'GET', url: '/host/ping' })).json()).toEqual({
      pong: true,
    });
    const ingest = await post(host, { message: 'through the plugin' });
    expect(ingest.statusCode).toBe(202);
    const page = await host.inject({
      method: 'GET',
      url: ingestPath(),
      headers: { 'x-api-key': KEYS.alice },
    });
    expect(page.json().logs.map((l: { message: string }) => l.message)).toEqual([
      'through the plugin',
    ]);
    // The context is the host's, built inside it.
    expect(host.receiver.adminToken).toBe(ADMIN_TOKEN);
    const ready = await host.inject({ method: 'GET', url: '/_receiver/health/ready' });
    expect(ready.statusCode).toBe(200);
  });

  it('closes its database with the host app', async () => {
    host = Fastify();
    await host.register(receiverPlugin, { seed: SEED });
    const { store } = host.receiver;
    await host.close();
    host = undefined;
    expect(store.db.isOpen).toBe(false);
  });

  it('fails the host app with a coded error for a bad option', async () => {
    host = Fastify();
    await expect(
      host.register(receiverPlugin, { limits: { maxBodyBytes: -1 } }).ready(),
    ).rejects.toMatchObject({ code: 'RESLOG_RECEIVER_INVALID_OPTION' });
  });

  it('buildReceiver still throws at once for a bad option or seed, before any database opens', () => {
    expect(() => buildReceiver({ limits: { maxBodyBytes: -1 } })).toThrow(/maxBodyBytes/);
    expect(() => buildReceiver({ seed: { accounts: 'nope' } })).toThrow();
    expect(() => buildReceiver({ pathPrefix: 'no-slash' })).toThrow(/pathPrefix/);
  });

  it('buildReceiver is the plugin in an instance of its own', async () => {
    host = buildReceiver({ seed: SEED });
    await host.ready();
    expect(host.hasPlugin('reslog-receiver')).toBe(true);
    expect(host.printRoutes().length).toBeGreaterThan(0);
    expect(
      (
        await host.inject({
          method: 'GET',
          url: `/u/alice/resources/${CHECKOUT}/logs/`,
          headers: { 'x-api-key': KEYS.alice },
        })
      ).statusCode,
    ).toBe(200);
  });
});
