import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ReslogReceiverContainer,
  type StartedReslogReceiverContainer,
} from '../../src/testing/index.js';
import { receiverImage } from './helpers/receiver.js';

const PLATFORM = '1a2b3c4d-0000-4000-8000-000000000001';
const BOB_KEY = 'bob-prefix-test-key-000001';
const SEED = {
  accounts: [{ username: 'bob', api_keys: [BOB_KEY] }],
  teams: [{ name: 'devops', members: [{ username: 'bob', role: 'editor' }] }],
  resources: [{ team: 'devops', uuid: PLATFORM, key: 'platform-api' }],
};

/** The hosted URL shape (`https://host/DevTools/team/<team>/resources/<uuid>/logs/`) in the container. */
describe.skipIf(!receiverImage)('a receiver container with a path prefix', () => {
  let receiver: StartedReslogReceiverContainer;
  beforeAll(async () => {
    receiver = await new ReslogReceiverContainer(receiverImage ?? undefined)
      .withSeed(SEED)
      .withPathPrefix('/DevTools')
      .start();
  });
  afterAll(async () => receiver?.stop());

  it('serves the web console at the root (getConsoleUrl()), with its CSP and its assets', async () => {
    expect(receiver.getConsoleUrl()).toBe(`${receiver.getRootUrl()}/`);
    const page = await fetch(receiver.getConsoleUrl());
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    // The page's API calls go under the prefix.
    expect(html).toContain('/DevTools');
    const script = /src="([^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const bundle = await fetch(new URL(script as string, receiver.getConsoleUrl()));
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
  });

  it('serves team resources under the prefix; getBaseUrl() includes it, the control plane does not need it', async () => {
    expect(receiver.getBaseUrl()).toBe(`${receiver.getRootUrl()}/DevTools`);
    const url = receiver.getTeamResourceUrl('devops', PLATFORM);
    expect(url).toMatch(/\/DevTools\/team\/devops\/resources\/1a2b3c4d-[^/]+\/$/);
    const post = (target: string) =>
      fetch(`${target}logs/`, {
        method: 'POST',
        headers: { 'x-api-key': BOB_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'through the prefix' }),
      });
    expect((await post(url)).status).toBe(202);
    // Without the prefix the service is not there.
    const unprefixed = `${receiver.getRootUrl()}/team/devops/resources/${PLATFORM}/`;
    expect((await post(unprefixed)).status).toBe(404);

    expect(await receiver.waitForLogs(PLATFORM, 1)).toBe(1);
    const byKey = await fetch(
      `${receiver.getBaseUrl()}/team/devops/resources/by-key/platform-api`,
      {
        headers: { 'x-api-key': BOB_KEY },
      },
    );
    expect(((await byKey.json()) as { uuid: string }).uuid).toBe(PLATFORM);
    const read = await fetch(`${url}logs/`, { headers: { 'x-api-key': BOB_KEY } });
    const { logs } = (await read.json()) as { logs: { message: string; user: string }[] };
    expect(logs.map((log) => [log.message, log.user])).toEqual([['through the prefix', 'bob']]);
  });
});
