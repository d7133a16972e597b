import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { receiverError } from '../../errors.js';
import { createLogFollower, type LogFollower } from '../../ingest/log-follower.js';
import type { LogFilter } from '../../store/log-filter.js';
import type { StoredLog } from '../../store/log-store.js';

/** Query parameters only follow takes (docs/receiver.md, "Follow"). */
export interface FollowQuery {
  follow?: boolean;
  after_id?: number;
  /** 0–1000. @default 0 */
  tail?: number;
}

const ndjson = {
  contentType: 'application/x-ndjson; charset=utf-8',
  format: (log: StoredLog) => `${JSON.stringify(log)}\n`,
  heartbeat: '\n',
};
const eventStream = {
  contentType: 'text/event-stream; charset=utf-8',
  // JSON.stringify escapes line breaks, so one data line always holds the whole log.
  format: (log: StoredLog) => `id: ${log.id}\nevent: log\ndata: ${JSON.stringify(log)}\n\n`,
  heartbeat: ': heartbeat\n\n',
};

function wantsEventStream(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept
    .split(',')
    .some((part) => part.trim().toLowerCase().startsWith('text/event-stream'));
}

function lastEventId(request: FastifyRequest): number | undefined {
  const value = request.headers['last-event-id'];
  if (value === undefined) return undefined;
  const text = (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
  if (!/^\d{1,15}$/.test(text)) {
    throw receiverError('invalid_request', 'Last-Event-ID must be a record id (a whole number)');
  }
  return Number(text);
}

/**
 * `GET {base}/:uuid/logs/?follow=true`: the resource's new logs as NDJSON or server-sent
 * events, for as long as the client stays (docs/receiver.md, "Follow"). Registered by
 * `readRoutes`; `startFollow` runs after the read route's hooks (load, auth, rate limit) and
 * gives the load slot back once the stream is set up.
 */
export function createFollowing(app: FastifyInstance) {
  const { store, events, metrics, limits } = app.receiver;
  const open = new Set<LogFollower>();

  const startFollow = (
    request: FastifyRequest<{ Querystring: FollowQuery }>,
    reply: FastifyReply,
    resourceId: number,
    filter: LogFilter,
  ) => {
    const query = request.query;
    const wire = wantsEventStream(request) ? eventStream : ndjson;
    const resumeAt = lastEventId(request) ?? query.after_id;
    const startId = resumeAt ?? store.logs.newestId();
    // The newest by time, as the read API's first page shows them, sent oldest first.
    const tail =
      resumeAt === undefined && query.tail
        ? store.logs
            .query(resourceId, { ...filter, limit: query.tail, order: 'desc', maxId: startId })
            .logs.reverse()
        : [];

    reply.hijack();
    const raw = reply.raw;
    const headers: Record<string, string | number | string[]> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) headers[name] = value;
    }
    raw.writeHead(200, {
      ...headers,
      'content-type': wire.contentType,
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
    let head = '';
    for (const log of tail) head += wire.format(log);
    // Send the headers now, so that the client's fetch() resolves before the first log.
    if (head) raw.write(head);
    else raw.flushHeaders();
    metrics.followers(1);

    const follower = createLogFollower({
      subscribe: (listener) => events.subscribe(resourceId, listener),
      fetch: (afterId, limit) => store.logs.follow(resourceId, filter, afterId, limit),
      format: wire.format,
      heartbeat: wire.heartbeat,
      sink: {
        write: (text) => {
          raw.write(text);
        },
        pendingBytes: () => raw.writableLength,
        onceDrained: (listener) => {
          raw.once('drain', listener);
          return () => raw.off('drain', listener);
        },
      },
      afterId: startId,
      maxBufferBytes: limits.maxFollowBufferBytes,
      heartbeatMillis: limits.followHeartbeatMillis,
      // A stream outlives the checks it started with: a revoked key, a removed share or team
      // membership ends it within a heartbeat interval, a deleted resource at once.
      stillAllowed: () => app.stillHasAccess(request, 'read'),
      onEnd: (reason, error) => {
        open.delete(follower);
        metrics.followers(-1);
        raw.off('close', gone);
        offRemoved();
        if (reason === 'revoked') {
          request.log.info(
            { resource: request.notes.resource },
            'follow ended: access revoked or resource deleted',
          );
        }
        if (reason === 'cut') {
          metrics.followerCut();
          request.log.warn(
            { resource: request.notes.resource },
            'follower cut off: client too slow',
          );
          // The client is not reading: ending politely would wait for it forever.
          raw.destroy();
        } else if (reason === 'error') {
          request.log.error({ err: error }, 'follow query failed');
          raw.destroy();
        } else if (!raw.destroyed) {
          // The connection goes with the stream: nothing else is sent on it after a follow.
          raw.end(() => raw.socket?.destroy());
        }
        if (!request.notes.journaled) app.journalRequest(request, 200);
      },
    });
    const gone = () => follower.stop();
    raw.once('close', gone);
    const offRemoved = events.onRemoved(resourceId, gone);
    open.add(follower);
    // Answered for minutes, a follow must not hold one of `maxInFlight` slots that long
    // (ingest would queue behind followers): it waited for one like any request, and gives it
    // back now that its stream is set up.
    app.releaseLoad(request);
    // A follow that arrived on a kept-alive connection while the receiver closes ends at once,
    // and so does one whose client left before it started ('close' is not emitted again).
    if (closing || raw.destroyed || !raw.socket || raw.socket.destroyed) follower.stop();
  };

  // Open streams would keep app.close() waiting forever: end them first.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    for (const follower of open) follower.stop();
  });

  return { startFollow };
}
