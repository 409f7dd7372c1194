// Every /api route is registered from its entry of the contract's endpoint table (packages/contract
// endpoints.ts), so its method, path and schemas cannot differ from what the web app calls:
//
//   r.route({ ...endpoint('targets.edit'), onRequest: requireUser, handler: async (req) => … });
//
// with `r = app.withTypeProvider<ZodTypeProvider>()`, Fastify types `req` and the reply from the schemas.
// Route plugins register under no prefix (the path is the whole path). api-docs.test.ts fails when a route
// is served that is not in the table, a table entry is not served, or a route's schemas are not its entry's.
import type { FastifySchema } from 'fastify';
import { endpoints, type Endpoint, type EndpointName, type EndpointSchemas } from '@pacebeat/contract';

/** An entry's schemas as Fastify names them (`query` is Fastify's `querystring`; `reply` answers 200). */
type RouteSchema<E> = (E extends { params: infer P } ? { params: P } : unknown) &
  (E extends { query: infer Q } ? { querystring: Q } : unknown) &
  (E extends { body: infer B } ? { body: B } : unknown) & {
    response: { 200: E extends { reply: infer R } ? R : never };
  };

export interface EndpointRoute<N extends EndpointName> {
  method: Endpoint<N>['method'];
  url: Endpoint<N>['path'];
  schema: RouteSchema<Endpoint<N>>;
}

/** The Fastify schema of a table entry: only the parts it has. */
export function routeSchema(e: EndpointSchemas): FastifySchema {
  const schema: FastifySchema = {};
  if (e.params) schema.params = e.params;
  if (e.query) schema.querystring = e.query;
  if (e.body) schema.body = e.body;
  schema.response = { 200: e.reply };
  return schema;
}

/** The method, url and schema of the table's `name`, to spread into `route({ … })`. */
export function endpoint<N extends EndpointName>(name: N): EndpointRoute<N> {
  const e: Endpoint = endpoints[name];
  return { method: e.method, url: e.path, schema: routeSchema(e) } as EndpointRoute<N>;
}
