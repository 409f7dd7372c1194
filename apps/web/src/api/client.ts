import type { EndpointName, EndpointReply, EndpointRequest, ErrorReply } from '@pacebeat/contract';
import { ENDPOINT_PATHS, endpointPath } from '@pacebeat/contract/rules';

/** Any schema with a `parse` that throws on bad input: the contract's zod schemas fit. */
export type ReplySchema<T> = { parse(data: unknown): T };

/**
 * A reply taken as its contract type, unchecked. The server sends every reply through its endpoint's
 * contract schema (Fastify's response schemas: a reply that does not match becomes a 500), so what reaches
 * the browser has passed it already; the app takes the contract's types and does not ship zod to check
 * them again (about 23 KB, brotli, of a visitor's first load). A caller that must check a reply passes
 * the zod schema itself (`check`).
 */
const typed = <T>(): ReplySchema<T> => ({ parse: (data) => data as T });

/**
 * Every failed API call ends in this one error type.
 * `status` is the HTTP status (0 when no answer came back); `code` is the envelope's stable code,
 * or `NetworkError`, `HttpError` (an answer without the envelope), `InvalidReply` (a reply that does
 * not match the contract).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;
  /** A 400's refusals by field (`name`, `filters.max_duration_s`), for a form to show under each field. */
  readonly fields: FieldRefusal[];

  constructor(
    status: number,
    code: string,
    message: string,
    requestId?: string,
    fields: FieldRefusal[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.requestId = requestId;
    this.fields = fields;
  }
}

export type FieldRefusal = { field: string; message: string };

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export type ApiClientOptions = {
  /** The admin's impersonation value (spec §6); when set, `sudo=<value>` is added to every API URL. */
  sudo?: string | null;
  /** Defaults to the browser's fetch; tests pass their own. */
  fetch?: typeof fetch;
};

/** A call's path parameters, query and body, and optionally a schema to check its reply with. */
export type CallRequest<N extends EndpointName> = EndpointRequest<N> & {
  check?: ReplySchema<EndpointReply<N>>;
};

/** The request is optional when the call needs nothing (no path parameter, no body). */
type CallArgs<N extends EndpointName> =
  Partial<EndpointRequest<N>> extends EndpointRequest<N>
    ? [request?: CallRequest<N>]
    : [request: CallRequest<N>];

type LooseRequest = { params?: Record<string, string | number>; query?: Record<string, unknown> };

/**
 * The URL of a call, from the contract's endpoint table: its path with the parameters filled in (each
 * encoded), its query, and `sudo=<value>` when set, e.g. `/api/spotify/targets/t1?sudo=bob`.
 */
export function endpointUrl<N extends EndpointName>(
  name: N,
  request: EndpointRequest<N> = {} as EndpointRequest<N>,
  sudo?: string | null,
): string {
  const { params, query = {} } = request as LooseRequest;
  const url = new URL(endpointPath(name, params), 'http://api.invalid');
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.append(key, String(value));
  }
  if (sudo) url.searchParams.set('sudo', sudo);
  return `${url.pathname}${url.search}`;
}

/** The one fetch wrapper of the web app: same-origin `/api`, cookies included, JSON in and out. */
export function createApiClient(options: ApiClientOptions = {}) {
  const sudo = options.sudo ?? null;
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  /** Calls the endpoint `name` of the contract: `api.call('targets.edit', { params: { id }, body })`. */
  async function call<N extends EndpointName>(name: N, ...[request]: CallArgs<N>): Promise<EndpointReply<N>> {
    const { method } = ENDPOINT_PATHS[name];
    const { body, check } = (request ?? {}) as { body?: unknown; check?: ReplySchema<EndpointReply<N>> };
    const url = endpointUrl(name, request, sudo);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await doFetch(url, {
        method,
        credentials: 'include',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new ApiError(0, 'NetworkError', error instanceof Error ? error.message : String(error));
    }

    const payload = await readJson(response);
    if (!response.ok) throw errorFromReply(response, payload);
    try {
      return (check ?? typed<EndpointReply<N>>()).parse(payload);
    } catch (error) {
      throw new ApiError(
        response.status,
        'InvalidReply',
        `${method} ${ENDPOINT_PATHS[name].path}: the reply does not match the contract (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }

  return { sudo, call };
}

export type ApiClient = ReturnType<typeof createApiClient>;

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The API's error envelope (contract `ErrorReply`), or undefined for any other body (a proxy's page). */
function envelopeOf(payload: unknown): (Pick<ErrorReply, 'error'> & { requestId?: string }) | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { error, requestId } = payload as { error?: unknown; requestId?: unknown };
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, fields } = error as { code?: unknown; message?: unknown; fields?: unknown };
  if (typeof code !== 'string' || typeof message !== 'string') return undefined;
  const refusals = Array.isArray(fields)
    ? fields.filter(
        (f): f is FieldRefusal =>
          typeof f === 'object' &&
          f !== null &&
          typeof (f as FieldRefusal).field === 'string' &&
          typeof (f as FieldRefusal).message === 'string',
      )
    : [];
  return {
    error: { code, message, fields: refusals },
    requestId: typeof requestId === 'string' ? requestId : undefined,
  };
}

function errorFromReply(response: Response, payload: unknown): ApiError {
  const envelope = envelopeOf(payload);
  if (!envelope) {
    return new ApiError(
      response.status,
      'HttpError',
      `HTTP ${response.status} ${response.statusText}`.trim(),
    );
  }
  return new ApiError(
    response.status,
    envelope.error.code,
    envelope.error.message,
    envelope.requestId,
    envelope.error.fields,
  );
}
