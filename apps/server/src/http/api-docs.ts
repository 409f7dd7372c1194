// The API's own documentation: an OpenAPI 3.1 document generated at run time from the zod schemas every
// /api route declares (one source of truth), served at /api/openapi.json, and Swagger UI at /api/docs,
// served from this origin (its scripts are files of @fastify/swagger-ui, so the strict CSP holds).
// Public on purpose: it says nothing the open-source repository does not, and every route keeps its own
// authorisation (see docs/api.md).
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { API_BASE, APP_VERSION, ErrorReply } from '@pacebeat/contract';
import { requireUser, SESSION_COOKIE } from './auth.plugin.ts';

export const OPENAPI_PATH = `${API_BASE}/openapi.json`;
export const DOCS_PREFIX = `${API_BASE}/docs`;

/** True for the routes the document describes: the /api calls, not the documentation's own files. */
export function isDocumentedRoute(url: string): boolean {
  if (url === OPENAPI_PATH || url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`)) return false;
  return url.startsWith(`${API_BASE}/`);
}

const zodToOpenApi = createJsonSchemaTransform({ skipList: [] });
const ErrorResponse = ErrorReply.describe(
  'Any error: 400 invalid request, 401 not signed in, 403 refused, 404, 409, 429 too many, 503 database unavailable',
);

/**
 * Swagger UI's own colours fail WCAG AA contrast (white on light green method badges, green-on-white
 * Authorize, pale links): darker ones, served as a file of this origin like the rest of the page.
 */
const DOCS_CSS = `
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1c5d99; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #1d6e47; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #8a4f00; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #a8231c; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #00695c; }
.swagger-ui .info .title small pre { background: #4f5661; }
.swagger-ui .info .title small.version-stamp { background: #3f6b00; }
.swagger-ui .info .title small.version-stamp pre { background: #3f6b00; }
.swagger-ui .info a.url, .swagger-ui .info .url { color: #1a56a0; }
.swagger-ui .btn.authorize { color: #1d6e47; border-color: #1d6e47; }
.swagger-ui .btn.authorize svg { fill: #1d6e47; }
`;

/** Route hooks may be one function or a list. */
const hooksOf = (route: RouteOptions, name: 'onRequest' | 'preHandler') => {
  const h = route[name];
  return Array.isArray(h) ? h : h ? [h] : [];
};

/** Tag of a route: its feature folder (`/api/spotify/connect` → spotify); top-level calls → session. */
const tagOf = (url: string) => {
  const parts = url.slice(API_BASE.length + 1).split('/');
  return parts.length > 1 ? parts[0]! : 'session';
};

/** An /api route as it was declared: the schema check (api-docs.test.ts) reads these. */
export interface DeclaredRoute {
  method: string;
  url: string;
  schema: FastifySchema;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every documented /api route with the schemas it declared, in the order they were added. */
    declaredApiRoutes: DeclaredRoute[];
  }
}

export const apiDocs = fp(
  async (app: FastifyInstance) => {
    const declared: DeclaredRoute[] = [];
    app.decorate('declaredApiRoutes', declared);
    app.addHook('onRoute', (route) => {
      if (!isDocumentedRoute(route.url)) return;
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') declared.push({ method, url: route.url, schema: route.schema ?? {} });
      }
    });
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Pacebeat API',
          version: APP_VERSION,
          description:
            "The calls Pacebeat's web app makes. Sign in with POST /api/login; the session cookie then " +
            'authenticates every call. Browsers must send requests from this origin (Origin and ' +
            'Sec-Fetch-Site are checked). Admins may add `?sudo=<email or user id>` to act as another user.',
        },
        components: {
          securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
        },
      },
      transform(doc) {
        if (!isDocumentedRoute(doc.url)) return { schema: { hide: true }, url: doc.url };
        const route = doc.route as RouteOptions;
        const schema = doc.schema ?? {};
        const out = zodToOpenApi({
          ...doc,
          // Every call answers errors in the one envelope.
          schema: { ...schema, response: { ...(schema.response as object), default: ErrorResponse } },
        });
        const signedIn = [...hooksOf(route, 'onRequest'), ...hooksOf(route, 'preHandler')].includes(
          requireUser,
        );
        return {
          ...out,
          schema: {
            ...out.schema,
            tags: [tagOf(doc.url)],
            ...(signedIn ? { security: [{ session: [] }] } : {}),
          },
        };
      },
    });
    await app.register(fastifySwaggerUi, {
      routePrefix: DOCS_PREFIX,
      theme: { title: 'Pacebeat API', css: [{ filename: 'pacebeat.css', content: DOCS_CSS }] },
      // No explore bar (it loads any URL); never the outside validator badge. Deep links put a link inside
      // each operation's button (nested interactive controls, which screen readers cannot reach).
      uiConfig: { layout: 'BaseLayout', deepLinking: false, validatorUrl: null },
    });
    app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'api-docs' },
);
