// A runner's action limits without the database: a refused loop is refused again by the
// process for a few seconds without a transaction per request, then asks PostgreSQL again.
import { describe, expect, it } from 'vitest';
import { ACTION_LIMITS, createRateLimitService, REFUSAL_REMEMBERED_MS } from './rate-limit.service.ts';

describe('takeAction', () => {
  it('counts each action in PostgreSQL until refused; a refusal is remembered briefly, then asked again', async () => {
    let t = 1_000_000;
    let allowed: number = ACTION_LIMITS.targets.max;
    const reserved: string[] = [];
    const limits = createRateLimitService({
      attempts: {
        reserve: async (_kind, keys) => {
          reserved.push(keys[0]!.key);
          return allowed-- > 0 ? [reserved.length] : null;
        },
        release: async () => undefined,
        clearFailures: async () => undefined,
      },
      windowMinutes: 15,
      maxFailuresPerAccount: 10,
      maxFailuresPerAccountAllAddresses: 100,
      maxFailuresPerAddress: 50,
      maxPerAddress: 20,
      maxConnectsPerAddress: 30,
      maxMailsPerRecipient: 5,
      now: () => new Date(t),
    });
    for (let i = 0; i < ACTION_LIMITS.targets.max; i++) await limits.takeAction('targets', 'u1');
    await expect(limits.takeAction('targets', 'u1')).rejects.toMatchObject({ statusCode: 429 });
    const asked = reserved.length;
    for (let i = 0; i < 50; i++)
      await expect(limits.takeAction('targets', 'u1')).rejects.toMatchObject({ statusCode: 429 });
    expect(reserved.length).toBe(asked); // no transaction for the 50 repeats
    // Another runner, and another kind of action, are asked for as usual.
    allowed = 5;
    await limits.takeAction('targets', 'u2');
    await limits.takeAction('refresh', 'u1');
    expect(reserved.length).toBe(asked + 2);
    t += REFUSAL_REMEMBERED_MS + 1;
    allowed = 1;
    await limits.takeAction('targets', 'u1'); // PostgreSQL says yes again (its window moved on)
    expect(reserved.at(-1)).toBe('targets:user:u1');
  });
});
