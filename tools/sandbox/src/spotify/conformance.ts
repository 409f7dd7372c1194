// Response validation against the OpenAPI document, for the conformance tests (and any product test
// that wants to check a recorded answer).
//
// Two adjustments, both explicit:
// - development mode: properties the document marks `deprecated` are what development-mode apps lost,
//   so there they must be absent (and are no longer required);
// - SCHEMA_FIXES and MESSAGELESS_ERRORS: places where Spotify's real answers contradict the document
//   (null where it says string, a 403 without a message).
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { loadOpenApi, type Mode } from './openapi.ts';

type Json = Record<string, unknown>;

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** [component schema, JSON path inside it, why]. Each makes the property nullable. */
export const SCHEMA_FIXES: ReadonlyArray<[string, string[], string]> = [
  ['CursorPagingObject', ['properties', 'next'], 'the last page of /me/following has "next": null'],
  ['CursorObject', ['properties', 'after'], 'the last page of /me/following has "cursors": {"after": null}'],
  ['PlaylistTrackObject', ['properties', 'item'], 'a playlist item whose track was taken down is null'],
  ['PlaylistTrackObject', ['properties', 'track'], 'the same under the old name'],
];
/** [response, why]: the error of this response may come without a message. */
export const MESSAGELESS_ERRORS: ReadonlyArray<[string, string]> = [
  ['Forbidden', 'endpoints removed in November 2024 (audio-features) answer 403 {"error":{"status":403}}'],
];
const NULLABLE_ITEMS: ReadonlyArray<[string, string]> = [
  ['ManyTracks', 'tracks'],
  ['ManyAlbums', 'albums'],
  ['ManyArtists', 'artists'],
  ['ManyAudioFeatures', 'audio_features'],
];

function removeDeprecated(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(removeDeprecated);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const obj = node as Json;
  const props = obj['properties'] as Record<string, Json> | undefined;
  const dropped = new Set<string>();
  if (props) {
    for (const [name, schema] of Object.entries(props)) {
      if (schema && schema['deprecated'] === true) {
        props[name] = { not: {}, description: 'removed for development-mode apps' };
        dropped.add(name);
      }
    }
  }
  for (const part of (obj['allOf'] as Json[] | undefined) ?? []) {
    const inner = part['properties'] as Record<string, Json> | undefined;
    for (const [name, schema] of Object.entries(inner ?? {}))
      if (schema?.['deprecated'] === true) dropped.add(name);
  }
  if (Array.isArray(obj['required']) && dropped.size > 0)
    obj['required'] = (obj['required'] as string[]).filter((r) => !dropped.has(r));
  for (const [k, v] of Object.entries(obj)) if (k !== 'required') removeDeprecated(v);
}

function prepare(mode: Mode): Json {
  const doc = structuredClone(loadOpenApi());
  const components = doc['components'] as Json;
  const schemas = components['schemas'] as Record<string, Json>;
  for (const [name, path] of SCHEMA_FIXES) {
    let parent: Json = schemas[name] as Json;
    for (const p of path.slice(0, -1)) parent = parent[p] as Json;
    const key = path[path.length - 1] as string;
    const original = parent[key] as Json;
    parent[key] = {
      anyOf: [original, { type: 'null' }],
      ...(original['deprecated'] ? { deprecated: true } : {}),
    };
  }
  const responses = components['responses'] as Record<string, Json>;
  for (const [name] of MESSAGELESS_ERRORS) {
    const schema = ((responses[name]?.['content'] as Json)['application/json'] as Json)['schema'] as Json;
    const error = structuredClone(schemas['ErrorObject']) as Json;
    error['required'] = ['status'];
    (schema['properties'] as Json)['error'] = error;
  }
  for (const [name, prop] of NULLABLE_ITEMS) {
    const schema = ((responses[name]?.['content'] as Json)['application/json'] as Json)['schema'] as Json;
    const items = ((schema['properties'] as Json)[prop] as Json)['items'] as Json;
    ((schema['properties'] as Json)[prop] as Json)['items'] = { anyOf: [items, { type: 'null' }] };
  }
  if (mode === 'dm') removeDeprecated(components);
  return doc;
}

const pointer = (parts: string[]) =>
  '#/' + parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export class ResponseValidator {
  private readonly ajv: Ajv;
  private readonly doc: Json;
  private readonly cache = new Map<string, ValidateFunction | null>();

  constructor(mode: Mode) {
    this.doc = prepare(mode);
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    for (const f of ['float', 'double', 'int32', 'int64']) this.ajv.addFormat(f, true);
    this.ajv.addSchema(this.doc, 'spotify');
  }

  /** The schema pointer of an operation's answer for a status, or null when the document declares no body. */
  private schemaPointer(path: string, method: string, status: number): string | null | undefined {
    const paths = this.doc['paths'] as Record<string, Record<string, Json>>;
    const op = paths[path]?.[method.toLowerCase()];
    if (!op) throw new Error(`no operation ${method} ${path}`);
    const responses = op['responses'] as Record<string, Json>;
    const key = String(status) in responses ? String(status) : undefined;
    if (!key) return undefined;
    let parts = ['paths', path, method.toLowerCase(), 'responses', key];
    let resp = responses[key] as Json;
    const ref = resp['$ref'];
    if (typeof ref === 'string') {
      parts = ref.replace(/^#\//, '').split('/');
      resp = (this.doc['components'] as Record<string, Record<string, Json>>)['responses']?.[
        parts[2] as string
      ] as Json;
    }
    if (!resp['content']) return null;
    return pointer([...parts, 'content', 'application/json', 'schema']);
  }

  /** Validates an answer; returns a list of problems (empty when it conforms). */
  validate(path: string, method: string, status: number, body: unknown): string[] {
    const ptr = this.schemaPointer(path, method, status);
    if (ptr === undefined) {
      if (status >= 400) return this.validateError(body);
      return [`status ${status} is not declared for ${method} ${path}`];
    }
    if (ptr === null)
      return body === undefined || body === '' ? [] : [`${method} ${path} ${status} declares no body`];
    let v = this.cache.get(ptr);
    if (v === undefined) {
      v = this.ajv.compile({ $ref: `spotify${ptr}` });
      this.cache.set(ptr, v);
    }
    if (v && !v(body))
      return (v.errors ?? [])
        .slice(0, 10)
        .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    return [];
  }

  private validateError(body: unknown): string[] {
    const v = this.ajv.compile({
      $ref: 'spotify#/components/responses/BadRequest/content/application~1json/schema',
    });
    return v(body) ? [] : (v.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
  }
}
