// Reply bodies of cached reads, serialised once. For reads served from the per-process caches (targets,
// sources: see cache/presented.ts), the route's response serializer was the rest of each request's work.

/** The content type Fastify gives a JSON reply; a string sent with it is sent as it is. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** The part of a Fastify reply used here (any route's reply: its send is typed by the route's schema). */
interface JsonReply {
  serialize(payload: unknown): unknown;
  type(contentType: string): { send(body: never): unknown };
}

/**
 * Sends a route's reply body serialised once per value (by identity) with the route's own serializer (its
 * response schema, then JSON); later sends of the same value send that string as it is. `wrap` builds the
 * reply object around the value.
 */
export function createSerializedOnce<V extends object>(wrap: (v: V) => unknown) {
  const bodies = new WeakMap<V, string>();
  return (reply: JsonReply, value: V): void => {
    let body = bodies.get(value);
    if (body === undefined) bodies.set(value, (body = String(reply.serialize(wrap(value)))));
    reply.type(JSON_TYPE).send(body as never); // the schema's object, already serialised
  };
}
