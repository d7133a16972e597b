import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LEVELS } from '../../../contract/levels.js';
import { receiverError } from '../../errors.js';
import { parseMinLevel } from '../../ingest/levels.js';
import { parseTimestamp } from '../../ingest/timestamps.js';
import { type LogFilter, parseLoggerFilter } from '../../store/log-filter.js';
import type { LogQuery } from '../../store/log-store.js';
import { createFollowing, type FollowQuery } from './follow-route.js';
import { ownerOf } from './resource-view.js';
import {
  errorResponses,
  RESOURCE_BASES,
  resourceSummarySchema,
  storedLogSchema,
} from './schemas.js';

/** Query of `GET /u/{username}/resources/{uuid}/logs/` (docs/receiver.md). */
export interface ReadLogsQuery extends FollowQuery {
  since?: string;
  until?: string;
  /**
   * Minimum level: a canonical name (alias), `level N` or a rank (`45`); ranks are debug 10,
   * info 20, warning 30, error 40, alert 45, critical 50.
   */
  level?: string;
  q?: string;
  trace_id?: string;
  /** `name` (exactly that logger) or `name.*` (it and every logger below it). */
  logger?: string;
  /** 1–1000. @default 100 */
  limit?: number;
  /** @default 'desc' */
  order?: 'asc' | 'desc';
  cursor?: string;
}

interface Cursor {
  /** ts (ns, decimal) and id of the last log of the previous page. */
  t: string;
  i: number;
  /** Highest id of the listing, fixed by its first page. */
  m: number;
  /** Order the cursor was made for. */
  o: 'asc' | 'desc';
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string, order: 'asc' | 'desc'): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
    if (
      typeof cursor.t === 'string' &&
      /^-?\d+$/.test(cursor.t) &&
      Number.isInteger(cursor.i) &&
      Number.isInteger(cursor.m) &&
      cursor.o === order
    ) {
      return cursor;
    }
  } catch {
    // fall through to the error below
  }
  throw receiverError('invalid_request', 'cursor is not valid for this listing');
}

function time(value: string | undefined, name: string): bigint | undefined {
  if (value === undefined) return undefined;
  const nanos = parseTimestamp(value);
  if (nanos === undefined) {
    throw receiverError('invalid_request', `${name} must be an RFC 3339 timestamp`);
  }
  return nanos;
}

/** Read-back of a resource's logs and the key → UUID lookup the exporter uses. */
export async function readRoutes(app: FastifyInstance) {
  const { store } = app.receiver;
  const { startFollow } = createFollowing(app);
  const read = [app.admitLoad, app.resourceAccess('read'), app.rateLimit];

  // One handler for the four list routes; fastify has validated the query against the
  // querystring schema below, which ReadLogsQuery (with FollowQuery) describes.
  const listLogs = async (
    request: FastifyRequest<{ Querystring: ReadLogsQuery }>,
    reply: FastifyReply,
  ) => {
    const access = request.access;
    if (!access) throw new Error('read route ran without resourceAccess');
    const query = request.query;
    const order = query.order ?? 'desc';
    let minRank: number | undefined;
    if (query.level !== undefined) {
      minRank = parseMinLevel(query.level);
      if (minRank === undefined) {
        throw receiverError(
          'invalid_request',
          `level must be one of ${LEVELS.join(', ')}, "level N" or a rank (a whole number)`,
        );
      }
    }
    const filter: LogFilter = {
      sinceNs: time(query.since, 'since'),
      untilNs: time(query.until, 'until'),
      minRank,
      q: query.q,
      traceId: query.trace_id?.toLowerCase(),
      logger: query.logger === undefined ? undefined : parseLoggerFilter(query.logger),
    };
    if (query.follow) {
      if (query.cursor !== undefined) {
        throw receiverError('invalid_request', 'follow=true takes after_id, not cursor');
      }
      startFollow(request, reply, access.resource.id, filter);
      return reply;
    }
    if (query.after_id !== undefined || query.tail !== undefined) {
      throw receiverError('invalid_request', 'after_id and tail need follow=true');
    }
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, order);
    const logQuery: LogQuery = {
      ...filter,
      limit: query.limit ?? 100,
      order,
      after: cursor && { tsNs: BigInt(cursor.t), id: cursor.i },
      maxId: cursor?.m,
    };
    const page = store.logs.query(access.resource.id, logQuery);
    const last = page.logs.at(-1);
    let next: string | null = null;
    if (page.hasMore && last) {
      const tsNs = parseTimestamp(last.ts) as bigint;
      next = encodeCursor({ t: tsNs.toString(), i: last.id, m: page.maxId, o: order });
    }
    return { logs: page.logs, next_cursor: next };
  };

  const listOptions = (params: (typeof RESOURCE_BASES)[number]['params']) => ({
    schema: {
      summary: 'A page of logs; with follow=true a stream of new logs (docs/receiver.md, "Follow")',
      description:
        'follow=true answers NDJSON (application/x-ndjson, one log per line, empty lines are heartbeats) or, with Accept: text/event-stream, server-sent events (id, event: log, data); the 200 schema below is the page.',
      produces: ['application/json', 'application/x-ndjson', 'text/event-stream'],
      params,
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: {
          since: { type: 'string' },
          until: { type: 'string' },
          level: { type: 'string' },
          q: { type: 'string', maxLength: 1000 },
          trace_id: { type: 'string', pattern: '^[0-9a-fA-F]{32}$' },
          logger: { type: 'string', minLength: 1, maxLength: 1000 },
          limit: { type: 'integer', minimum: 1, maximum: 1000 },
          order: { type: 'string', enum: ['asc', 'desc'] },
          cursor: { type: 'string', maxLength: 500 },
          follow: { type: 'boolean' },
          after_id: { type: 'integer', minimum: 0 },
          tail: { type: 'integer', minimum: 0, maximum: 1000 },
        },
      },
      response: {
        200: {
          type: 'object',
          required: ['logs', 'next_cursor'],
          properties: {
            logs: { type: 'array', items: storedLogSchema },
            next_cursor: { type: ['string', 'null'] },
          },
        },
        ...errorResponses,
      },
    },
    onRequest: read,
  });
  // The same routes under an account (/u/{username}) and a team (/team/{team}).
  for (const { base, params, byKey } of RESOURCE_BASES) {
    app.get<{ Querystring: ReadLogsQuery }>(`${base}/:uuid/logs/`, listOptions(params), listLogs);
    app.get<{ Querystring: ReadLogsQuery }>(`${base}/:uuid/logs`, listOptions(params), listLogs);

    app.get(
      `${base}/by-key/:key`,
      {
        schema: {
          params: byKey,
          response: { 200: resourceSummarySchema, ...errorResponses },
        },
        onRequest: read,
      },
      async (request) => {
        const resource = request.access?.resource;
        if (!resource) throw new Error('by-key route ran without resourceAccess');
        return {
          uuid: resource.uuid,
          key: resource.key,
          name: resource.name,
          ...ownerOf(resource),
          health: resource.health,
        };
      },
    );
  }
}
