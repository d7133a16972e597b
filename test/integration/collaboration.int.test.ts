import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceLogExporter } from '../../src/index.js';
import {
  ReslogReceiverContainer,
  type StartedReslogReceiverContainer,
} from '../../src/testing/index.js';
import { exportOnce, logRecord, resource } from '../helpers/records.js';
import { receiverImage } from './helpers/receiver.js';

interface Notification {
  kind: 'health_change' | 'log_alert';
  health: { from: string; to: string } | null;
  log_alert: { level: string; count: number } | null;
}

/**
 * Sharing and notifications through the container (docs/receiver.md, "Notifications"): each
 * member's inbox follows their own settings.
 */
describe.skipIf(!receiverImage)('collaboration and notifications in the container', () => {
  let receiver: StartedReslogReceiverContainer;
  beforeAll(async () => {
    receiver = await new ReslogReceiverContainer(receiverImage ?? undefined).start();
  });
  afterAll(async () => receiver?.stop());

  async function api<T>(apiKey: string, method: string, path: string, body?: unknown) {
    const response = await fetch(`${receiver.getBaseUrl()}${path}`, {
      method,
      headers: {
        'x-api-key': apiKey,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    expect(response.ok, `${method} ${path}: ${response.status} ${text}`).toBe(true);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  const inbox = async (apiKey: string, uuid: string) =>
    (
      await api<{ notifications: Notification[] }>(
        apiKey,
        'GET',
        `/api/notifications?resource=${uuid}&limit=200`,
      )
    ).notifications;

  /** Polls until `check` passes (notifications are written after the ingest commit). */
  async function eventually(check: () => Promise<void>, timeoutMillis = 15_000) {
    const deadline = Date.now() + timeoutMillis;
    for (;;) {
      try {
        return await check();
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await delay(100);
      }
    }
  }

  it('fans health changes and log alerts out to each member by their own settings', async () => {
    const [alice, bob, carol] = await Promise.all(
      ['alice', 'bob', 'carol'].map((name) => receiver.createAccount(name)),
    );
    if (!alice || !bob || !carol) throw new Error('accounts');
    const { uuid } = await api<{ uuid: string }>(alice.apiKey, 'POST', '/api/resources', {
      name: 'Payments',
      key: 'payments',
    });
    await api(alice.apiKey, 'PUT', `/api/resources/${uuid}/collaborators/bob`, { role: 'editor' });
    await api(alice.apiKey, 'PUT', `/api/resources/${uuid}/collaborators/carol`, {
      role: 'viewer',
    });
    // alice keeps the defaults (health changes, alerts from error); bob wants warnings and no
    // health changes; carol turns notifications off.
    const settings = `/api/resources/${uuid}/notification-settings`;
    await api(bob.apiKey, 'PUT', settings, {
      enabled: true,
      health_changes: false,
      log_alert_level: 'warning',
      webhook_url: null,
    });
    await api(carol.apiKey, 'PUT', settings, {
      enabled: false,
      health_changes: true,
      log_alert_level: 'error',
      webhook_url: null,
    });

    // bob, an editor, ships logs with the exporter: 3 errors, 2 warnings, 5 infos.
    const exporter = new ResourceLogExporter({
      resource: receiver.getResourceUrl('alice', uuid),
      apiKey: bob.apiKey,
    });
    const severities = [17, 17, 17, 13, 13, 9, 9, 9, 9, 9];
    const result = await exportOnce(
      exporter,
      severities.map((severityNumber, i) =>
        logRecord({ severityNumber, body: `event ${i}`, resource: resource({}) }),
      ),
    );
    expect(result.code).toBe(0);
    await api(bob.apiKey, 'PUT', `/api/resources/${uuid}/health`, {
      state: 'down',
      reason: 'database unreachable',
    });

    await eventually(async () => {
      const aliceInbox = await inbox(alice.apiKey, uuid);
      expect(aliceInbox.find((n) => n.kind === 'health_change')?.health).toMatchObject({
        from: 'unknown',
        to: 'down',
      });
      expect(aliceInbox.find((n) => n.kind === 'log_alert')?.log_alert).toMatchObject({
        count: 3,
      });
      expect(aliceInbox).toHaveLength(2);
      const bobInbox = await inbox(bob.apiKey, uuid);
      expect(bobInbox.map((n) => [n.kind, n.log_alert?.count])).toEqual([['log_alert', 5]]);
    });
    expect(await inbox(carol.apiKey, uuid)).toEqual([]);

    // Removing bob stops his notifications at once; alice's alert keeps counting.
    await api(alice.apiKey, 'DELETE', `/api/resources/${uuid}/collaborators/bob`);
    const more = new ResourceLogExporter({
      resource: receiver.getResourceUrl('alice', uuid),
      apiKey: alice.apiKey,
    });
    const again = await exportOnce(more, [
      logRecord({ severityNumber: 17, body: 'after removal', resource: resource({}) }),
    ]);
    expect(again.code).toBe(0);
    await eventually(async () => {
      const alerts = (await inbox(alice.apiKey, uuid)).filter((n) => n.kind === 'log_alert');
      expect(alerts.reduce((sum, n) => sum + (n.log_alert?.count ?? 0), 0)).toBe(4);
    });
    await expect(
      fetch(`${receiver.getBaseUrl()}/api/notifications?resource=${uuid}`, {
        headers: { 'x-api-key': bob.apiKey },
      }).then(async (r) => (await r.json()) as { notifications: Notification[] }),
    ).resolves.toMatchObject({ notifications: [] });
    await Promise.all([exporter.shutdown(), more.shutdown()]);
  });
});
