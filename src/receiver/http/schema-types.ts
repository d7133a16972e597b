import type { FastifyInstance, FastifyTypeProvider } from 'fastify';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/**
 * A fastify type provider (json-schema-to-ts's `FromSchema`) for what a request brings:
 * `request.body`, `query`, `params` and `headers` are typed from the route's JSON schemas,
 * which fastify has already validated, so handlers need no casts. Replies are left untyped:
 * the response schemas are open objects (fast-json-stringify writes the fields they name), and
 * typing them would make every store type carry an index signature; the route tests hold the
 * reply shapes instead (docs/architecture.md, "Where each behaviour lives").
 */
export interface RequestSchemaTypes extends FastifyTypeProvider {
  validator: this['schema'] extends JSONSchema ? FromSchema<this['schema']> : unknown;
  serializer: unknown;
}

/** `app` with request types inferred from each route's schemas. */
export function withSchemaTypes(app: FastifyInstance) {
  return app.withTypeProvider<RequestSchemaTypes>();
}
