// The Spotify OpenAPI document (a copy of shared/reference, MIT, in packages/spotify-openapi, shared with
// the server's generated types): the operations the sandbox serves, and request checks built from their
// parameters and bodies.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';

export const OPENAPI_PATH = fileURLToPath(
  new URL('../../../../packages/spotify-openapi/spotify-web-api.openapi.yml', import.meta.url),
);
/** The same document as JSON (scripts/build-openapi-json.ts), which parses ~50x faster. */
export const OPENAPI_JSON_PATH = fileURLToPath(
  new URL('../../../../packages/spotify-openapi/spotify-web-api.openapi.json', import.meta.url),
);

export type Mode = 'dm' | 'eq';
type Json = Record<string, unknown>;

export interface ParamInfo {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  schema: Json;
}

export interface OperationInfo {
  id: string;
  method: string;
  path: string;
  deprecated: boolean;
  params: ParamInfo[];
  body?: { schema: Json; required: boolean };
}

let cachedDoc: Json | undefined;

/** The parsed document, read once per process (from the JSON copy). */
export function loadOpenApi(): Json {
  cachedDoc ??= JSON.parse(readFileSync(OPENAPI_JSON_PATH, 'utf8')) as Json;
  return cachedDoc;
}

function resolve(doc: Json, node: Json): Json {
  const ref = node['$ref'];
  if (typeof ref !== 'string') return node;
  let cur: unknown = doc;
  for (const part of ref.replace(/^#\//, '').split('/')) cur = (cur as Json)[part];
  return resolve(doc, cur as Json);
}

// Limits that extended-quota apps keep (development mode lowered them in the document).
const EQ_LIMITS: Record<string, number> = {
  'get-an-artists-albums': 50,
  search: 50,
  'get-playlists-items': 100,
};

export interface RequestCheck {
  ok: boolean;
  message?: string;
  query: Record<string, unknown>;
}

export class OpenApi {
  readonly doc: Json;
  readonly operations = new Map<string, OperationInfo>();
  private readonly ajv = new Ajv({ coerceTypes: true, useDefaults: false, strict: false, allErrors: false });
  private readonly bodyAjv = new Ajv({ strict: false, allErrors: false });
  private readonly queryValidators = new Map<string, ValidateFunction>();
  private readonly bodyValidators = new Map<string, ValidateFunction>();

  constructor(doc: Json = loadOpenApi()) {
    this.doc = doc;
    const paths = doc['paths'] as Record<string, Record<string, Json>>;
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (typeof op !== 'object' || !op['operationId']) continue;
        const params = ((op['parameters'] as Json[] | undefined) ?? []).map((p) =>
          resolve(doc, p),
        ) as unknown as ParamInfo[];
        const rb = op['requestBody'] as Json | undefined;
        const bodySchema = rb
          ? ((rb['content'] as Json)['application/json'] as Json | undefined)?.['schema']
          : undefined;
        this.operations.set(op['operationId'] as string, {
          id: op['operationId'] as string,
          method: method.toUpperCase(),
          path,
          deprecated: op['deprecated'] === true,
          params,
          ...(bodySchema
            ? { body: { schema: bodySchema as Json, required: rb?.['required'] === true } }
            : {}),
        });
      }
    }
  }

  op(id: string): OperationInfo {
    const op = this.operations.get(id);
    if (!op) throw new Error(`unknown operation ${id}`);
    return op;
  }

  private queryValidator(op: OperationInfo, mode: Mode): ValidateFunction {
    const key = `${op.id}:${mode}`;
    let v = this.queryValidators.get(key);
    if (v) return v;
    const properties: Json = {};
    const required: string[] = [];
    for (const p of op.params.filter((x) => x.in === 'query')) {
      let schema: Json = { ...p.schema };
      delete schema['default'];
      if (p.name === 'limit' && mode === 'eq' && EQ_LIMITS[op.id])
        schema = { ...schema, maximum: EQ_LIMITS[op.id] };
      properties[p.name] = schema;
      if (p.required) required.push(p.name);
    }
    v = this.ajv.compile({ type: 'object', properties, required, additionalProperties: false });
    this.queryValidators.set(key, v);
    return v;
  }

  /** Checks a request's query and body against the operation; answers Spotify-like messages. */
  checkRequest(
    opId: string,
    mode: Mode,
    rawQuery: Record<string, unknown>,
    body: unknown,
    strict: boolean,
  ): RequestCheck {
    const op = this.op(opId);
    const query: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(rawQuery)) {
      const value = Array.isArray(v) ? v[v.length - 1] : v;
      const param = op.params.find((p) => p.in === 'query' && p.name === k);
      query[k] = param?.schema['type'] === 'array' && typeof value === 'string' ? value.split(',') : value;
    }
    const known = new Set(op.params.filter((p) => p.in === 'query').map((p) => p.name));
    if (!strict) for (const k of Object.keys(query)) if (!known.has(k)) delete query[k];
    const validate = this.queryValidator(op, mode);
    if (!validate(query)) {
      const err = validate.errors?.[0];
      if (err?.keyword === 'additionalProperties')
        return {
          ok: false,
          message: `Unknown parameter: ${String(err.params['additionalProperty'])}`,
          query,
        };
      if (err?.keyword === 'required')
        return { ok: false, message: `Missing parameter ${String(err.params['missingProperty'])}`, query };
      const name = (err?.instancePath ?? '').split('/')[1] ?? 'parameter';
      return { ok: false, message: `Invalid ${name}`, query };
    }
    const hasBody = body !== undefined && body !== null && !(typeof body === 'string' && body === '');
    if (!op.body) {
      if (hasBody && strict) return { ok: false, message: 'This endpoint takes no request body', query };
      return { ok: true, query };
    }
    if (!hasBody)
      return op.body.required ? { ok: false, message: 'Missing request body', query } : { ok: true, query };
    let bv = this.bodyValidators.get(op.id);
    if (!bv) this.bodyValidators.set(op.id, (bv = this.bodyAjv.compile(op.body.schema)));
    if (!bv(body)) {
      const err = bv.errors?.[0];
      const where = err?.instancePath ? ` at ${err.instancePath}` : '';
      return { ok: false, message: `Invalid request body${where}: ${err?.message ?? 'invalid'}`, query };
    }
    return { ok: true, query };
  }
}
