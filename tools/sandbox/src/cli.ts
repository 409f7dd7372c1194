// npm run sandbox [-- --port 8090 --seed 1 --size default --extended-quota --client-id ID ...]
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { startSandbox } from './index.ts';
import type { WorldSize } from './world/sizes.ts';

const t0 = performance.now();
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env['SANDBOX_PORT'] ?? '8090' },
    host: { type: 'string', default: '127.0.0.1' },
    seed: { type: 'string' },
    size: { type: 'string', default: 'default' },
    'client-id': { type: 'string', multiple: true },
    'extended-quota': { type: 'boolean', default: false },
    'daily-quota': { type: 'string' },
    'rate-limit': { type: 'string' },
    'no-rotation': { type: 'boolean', default: false },
    lenient: { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
    'transient-failures': { type: 'string' },
    log: { type: 'boolean', default: false },
    'preview-cache': { type: 'string' },
    'admin-token': { type: 'string', default: process.env['SANDBOX_ADMIN_TOKEN'] },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(`Usage: npm run sandbox -- [options]
  --port N              port (default 8090, env SANDBOX_PORT)
  --host H              host (default 127.0.0.1)
  --seed N              world seed
  --size S              tiny | small | default | large
  --client-id ID        registered Spotify client id (repeatable; default pacebeat-demo)
  --extended-quota      extended-quota semantics instead of development mode
  --daily-quota N       calls per rolling 24 h (0 = off; default 1000 in development mode)
  --rate-limit N        calls per rolling 30 s per app (0 = off; default 180)
  --no-rotation         refresh does not rotate the refresh token
  --strict              answer 400 for unknown query parameters and bodies Spotify would accept
  --lenient             the default (kept for old scripts)
  --transient-failures S  share of calls that fail transiently (5xx, resets, slow answers;
                        default 0, realistic 0.005)
  --log                 log every request
  --preview-cache DIR   keep synthesised previews in DIR across runs (each costs ~0.6 s of CPU to make)
  --admin-token T       the admin API answers only \`Authorization: Bearer T\` (env SANDBOX_ADMIN_TOKEN;
                        default: a new random one per start, printed below; give it to Pacebeat as
                        DEMO_SANDBOX_ADMIN_TOKEN)`);
  process.exit(0);
}

const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
const quota = num(values['daily-quota']);
const rate = num(values['rate-limit']);
// Who reaches the port (another local user, a LAN with --host) must not drive the world: a token per start.
const adminToken = values['admin-token'] || randomBytes(18).toString('base64url');
const sandbox = await startSandbox({
  adminToken,
  port: Number(values.port),
  host: values.host,
  size: values.size as WorldSize,
  extendedQuota: values['extended-quota'],
  strictRequests: values.strict && !values.lenient,
  logger: values.log,
  ...(values.seed ? { seed: Number(values.seed) } : {}),
  ...(values['client-id'] ? { clientIds: values['client-id'] } : {}),
  ...(quota !== undefined
    ? {
        dailyQuota:
          quota > 0 ? { windowSeconds: 86_400, maxRequests: quota, minRetryAfterSeconds: 13 * 3600 } : false,
      }
    : {}),
  ...(rate !== undefined ? { rateLimit: rate > 0 ? { windowSeconds: 30, maxRequests: rate } : false } : {}),
  ...(values['no-rotation'] ? { rotateRefreshTokens: 'never' as const } : {}),
  ...(values['transient-failures'] !== undefined
    ? { transientFailures: Number(values['transient-failures']) }
    : {}),
  ...(values['preview-cache'] ? { previews: { diskCacheDir: values['preview-cache'] } } : {}),
});

const w = sandbox.admin.world();
console.log(
  `Pacebeat sandbox (simulated music world) on ${sandbox.url}, started in ${Math.round(performance.now() - t0)} ms`,
);
console.log(
  `  world: seed ${w.seed}, size ${w.size}: ${w.artists} artists, ${w.releases} releases, ${w.tracks} tracks; ${w.extendedQuota ? 'extended quota' : 'development mode'}`,
);
console.log(`  users: ${w.users.join(', ')}`);
for (const [name, url] of Object.entries(sandbox.baseUrls)) console.log(`  ${name.padEnd(16)} ${url}`);
if (!values['admin-token']) console.log(`  admin token      ${adminToken} (DEMO_SANDBOX_ADMIN_TOKEN)`);

const stop = () => {
  void sandbox.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
