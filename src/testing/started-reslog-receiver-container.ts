import { AbstractStartedContainer, type StartedTestContainer } from 'testcontainers';
import type {
  CreatedAccount,
  CreateResourceInput,
  FaultRule,
  FaultRuleInput,
  JournalEntry,
  LogPage,
  ReadLogsQuery,
  ReceiverResource,
} from './receiver-types.js';

const RECEIVER_PORT = 8765;

/** A started receiver: its URLs and the control-plane calls tests need. */
export class StartedReslogReceiverContainer extends AbstractStartedContainer {
  constructor(
    startedTestContainer: StartedTestContainer,
    private readonly adminToken: string,
    private readonly pathPrefix = '',
  ) {
    super(startedTestContainer);
  }

  /**
   * The service's base URL as seen from the test process, what SDKs and exporters are given:
   * `http://host:port` plus the path prefix, if any (the port changes on restart).
   */
  getBaseUrl(): string {
    return `${this.getRootUrl()}${this.pathPrefix}`;
  }

  /**
   * The web console (docs/receiver.md, "Web console"): always at the root, also with a path
   * prefix (its API calls go under the prefix). Sign in with an API key or the admin token.
   */
  getConsoleUrl(): string {
    return `${this.getRootUrl()}/`;
  }

  /** `http://host:port` without the path prefix: the control plane, health and metrics. */
  getRootUrl(): string {
    return `http://${this.getHost()}:${this.getMappedPort(RECEIVER_PORT)}`;
  }

  /** The path prefix the service is served under (`withPathPrefix()`), `''` for none. */
  getPathPrefix(): string {
    return this.pathPrefix;
  }

  getAdminToken(): string {
    return this.adminToken;
  }

  /** The resource URL an exporter's `resource` option accepts (base URL, owner and UUID). */
  getResourceUrl(username: string, uuid: string): string {
    return `${this.getBaseUrl()}/u/${encodeURIComponent(username)}/resources/${uuid}/`;
  }

  /** The URL of a team's resource (base URL, team and UUID). */
  getTeamResourceUrl(team: string, uuid: string): string {
    return `${this.getBaseUrl()}/team/${encodeURIComponent(team)}/resources/${uuid}/`;
  }

  /** Creates an account with one generated API key. */
  async createAccount(username: string): Promise<CreatedAccount> {
    await this.control('POST', '/_receiver/accounts', { username });
    const key = await this.control<{ api_key: string }>(
      'POST',
      `/_receiver/accounts/${encodeURIComponent(username)}/keys`,
    );
    return { username, apiKey: key.api_key };
  }

  createResource(input: CreateResourceInput): Promise<ReceiverResource> {
    return this.control('POST', '/_receiver/resources', input);
  }

  /** One page of `GET /u/{username}/resources/{uuid}/logs/`, read with `apiKey`. */
  async readLogs(
    username: string,
    uuid: string,
    apiKey: string,
    query: ReadLogsQuery = {},
  ): Promise<LogPage> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) search.set(name, String(value));
    }
    const response = await fetch(`${this.getResourceUrl(username, uuid)}logs/?${search}`, {
      headers: { 'x-api-key': apiKey },
    });
    return (await this.answer(response, 'GET logs')) as LogPage;
  }

  /**
   * Waits until the resource holds at least `min` logs (the receiver's long poll) and returns
   * the count; throws with the last count when `timeoutMillis` passes first.
   */
  async waitForLogs(uuid: string, min: number, timeoutMillis = 10_000): Promise<number> {
    const deadline = Date.now() + timeoutMillis;
    for (;;) {
      const timeout = Math.max(0, Math.min(60_000, deadline - Date.now()));
      const answer = await this.control<{ count: number; satisfied: boolean }>(
        'GET',
        `/_receiver/logs/wait?resource=${uuid}&min=${min}&timeout=${timeout}`,
      );
      if (answer.satisfied) return answer.count;
      if (Date.now() >= deadline) {
        throw new Error(
          `resource ${uuid} holds ${answer.count} logs after ${timeoutMillis} ms, expected at least ${min}`,
        );
      }
    }
  }

  /** Replaces all fault rules with `rules` (applied in order, first match wins). */
  async setFaults(rules: readonly FaultRuleInput[]): Promise<FaultRule[]> {
    await this.clearFaults();
    const stored: FaultRule[] = [];
    for (const rule of rules) stored.push(await this.control('POST', '/_receiver/faults', rule));
    return stored;
  }

  async clearFaults(): Promise<void> {
    await this.control('DELETE', '/_receiver/faults');
  }

  /** The fault rules with how often each fired. */
  async getFaults(): Promise<FaultRule[]> {
    return (await this.control<{ faults: FaultRule[] }>('GET', '/_receiver/faults')).faults;
  }

  /** The data-plane request journal (newest last), optionally for one resource. */
  async getRequests(resource?: string, limit = 1000): Promise<JournalEntry[]> {
    const query = `limit=${limit}${resource ? `&resource=${resource}` : ''}`;
    const answer = await this.control<{ requests: JournalEntry[] }>(
      'GET',
      `/_receiver/requests?${query}`,
    );
    return answer.requests;
  }

  private async control<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.getRootUrl()}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await this.answer(response, `${method} ${path}`)) as T;
  }

  private async answer(response: Response, what: string): Promise<unknown> {
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`receiver answered ${what} with ${response.status}: ${text.slice(0, 500)}`);
    }
    return text === '' ? undefined : JSON.parse(text);
  }
}
