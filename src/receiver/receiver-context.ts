import type { FaultRegistry, FaultRule } from './control/fault-rules.js';
import type { LogEvents } from './control/log-events.js';
import type { RequestJournal } from './control/request-journal.js';
import type { ReceiverMetrics } from './http/metrics.js';
import type { RateLimiter } from './http/rate-limiter.js';
import type { HealthChecker } from './monitor/health-checker.js';
import type { Monitor } from './monitor/monitor.js';
import type { WebhookWorker } from './monitor/webhook-worker.js';
import type { ReceiverLimits } from './receiver-options.js';
import type { Seed } from './seed.js';
import type { Store } from './store/create-store.js';
import type { Principal, Resource, Role } from './store/directory-store.js';

/** Everything the routes share, as `app.receiver`. */
export interface ReceiverContext {
  readonly store: Store;
  readonly limits: ReceiverLimits;
  readonly clock: () => number;
  /** Bearer token of the control plane. */
  readonly adminToken: string;
  readonly faults: FaultRegistry;
  readonly journal: RequestJournal;
  readonly metrics: ReceiverMetrics;
  readonly events: LogEvents;
  readonly rateLimiter: RateLimiter;
  /** The seed given at start, re-applied by `POST /_receiver/reset?reseed=true`. */
  readonly seed: Seed | undefined;
  /** Health transitions and log alerts → each member's notifications. */
  readonly monitor: Monitor;
  /** Sends queued webhooks (started when the app is ready, stopped on close). */
  readonly webhooks: WebhookWorker;
  /** Probes attached health checks (started when the app is ready, stopped on close). */
  readonly healthChecker: HealthChecker;
}

/** Who is asking about which resource, set by the auth plugin. */
export interface ResourceAccess {
  principal: Principal;
  resource: Resource;
  role: Role;
}

/** What the journal and metrics learn while a request runs. */
export interface RequestNotes {
  route: string;
  principal?: Principal;
  resource?: string;
  accepted?: number;
  rejected?: number;
  replayed?: boolean;
  fault?: FaultRule;
  /** Set once the journal has the entry (a reset connection is journaled when it fires). */
  journaled?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    receiver: ReceiverContext;
  }
  interface FastifyRequest {
    access: ResourceAccess | undefined;
    bodyDigest: string | undefined;
    notes: RequestNotes;
  }
}
