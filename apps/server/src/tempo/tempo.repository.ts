// The only SQL of the tempo resolver: the shared tempo cache and the services' shared pacing.
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { tempoRecordings, tempoServiceLimits, type TempoAlternative } from '../db/tempo.schema.ts';
import type { Meter } from './meter.ts';

export interface CachedTempo {
  key: string;
  bpm: number | null;
  source: string | null;
  confidence: number;
  alternatives: TempoAlternative[];
  /** The meter decided (tempo/meter.ts), and how sure. */
  meter: Meter | null;
  meterConfidence: number;
  reason: string | null;
  retryAt: Date | null;
  resolvedAt: Date;
}

/** A row to save: what the cache answers, plus the ids it was found by. */
export interface TempoRow
  extends
    Omit<CachedTempo, 'meter' | 'meterConfidence'>,
    Partial<Pick<CachedTempo, 'meter' | 'meterConfidence'>> {
  isrc: string | null;
  spotifyId: string | null;
}

/**
 * What a pacing request got: a slot (now, or reserved for `at`, at most the asked wait ahead), or the time
 * the service can be called again.
 */
export type SlotAnswer = { ok: true; at?: Date } | { ok: false; retryAt: Date; reason: string };

export function createTempoRepository(db: Db) {
  return {
    async getByKeys(keys: string[]): Promise<Map<string, CachedTempo>> {
      if (keys.length === 0) return new Map();
      const rows = await db.select().from(tempoRecordings).where(inArray(tempoRecordings.key, keys));
      return new Map(rows.map((r) => [r.key, r]));
    },

    /** Upserts results; a repeated negative result counts its attempts. */
    async save(rows: TempoRow[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insert(tempoRecordings)
        .values(rows)
        .onConflictDoUpdate({
          target: tempoRecordings.key,
          set: {
            isrc: sql`coalesce(excluded.isrc, ${tempoRecordings.isrc})`,
            spotifyId: sql`coalesce(excluded.spotify_id, ${tempoRecordings.spotifyId})`,
            bpm: sql`excluded.bpm`,
            source: sql`excluded.source`,
            confidence: sql`excluded.confidence`,
            alternatives: sql`excluded.alternatives`,
            meter: sql`excluded.meter`,
            meterConfidence: sql`excluded.meter_confidence`,
            reason: sql`excluded.reason`,
            retryAt: sql`excluded.retry_at`,
            attempts: sql`${tempoRecordings.attempts} + 1`,
            resolvedAt: sql`excluded.resolved_at`,
          },
        });
    },

    /**
     * Empties the tempo cache: leaving demo mode, every row came from the simulated world, whose
     * ISRCs look like real ones, so a real track must not find a simulated tempo. Answers the rows deleted.
     */
    async forgetAll(): Promise<number> {
      const rows = await db.delete(tempoRecordings).returning({ key: tempoRecordings.key });
      return rows.length;
    },

    /**
     * Takes the next call slot of a service (GCRA, atomic across processes): now when the service is not
     * cooling down and its theoretical arrival time is at most `burstMs` ahead of `now`, else reserved up
     * to `maxWaitMs` ahead, so a caller that must wait waits for its own slot and does not
     * ask again (many waiters asking again at the same instant made one row every process fought for in the
     * crowd benchmark). Refused during a cooldown or when the next slot is further ahead.
     */
    async takeSlot(
      service: string,
      now: Date,
      intervalMs: number,
      burstMs: number,
      maxWaitMs = 0,
    ): Promise<SlotAnswer> {
      const interval = `${Math.max(1, Math.round(intervalMs))} milliseconds`;
      const at = now.toISOString();
      const taken = await db.execute<{ next_at: Date | string }>(sql`
        insert into ${tempoServiceLimits} as l (service, next_at)
        values (${service}, ${at}::timestamptz + ${interval}::interval)
        on conflict (service) do update
          set next_at = greatest(l.next_at, ${at}::timestamptz) + ${interval}::interval
          where (l.cooldown_until is null or l.cooldown_until <= ${at}::timestamptz)
            and greatest(l.next_at, ${at}::timestamptz)
                <= ${at}::timestamptz + ${`${Math.round(burstMs + Math.max(0, maxWaitMs))} milliseconds`}::interval
        returning l.next_at`);
      const got = taken.rows[0];
      if (got) {
        // The slot's moment: the new next_at less this call's interval and the burst, not before now.
        const slotAt = new Date(got.next_at).getTime() - Math.max(1, Math.round(intervalMs)) - burstMs;
        return slotAt > now.getTime() ? { ok: true, at: new Date(slotAt) } : { ok: true };
      }
      const [row] = await db
        .select()
        .from(tempoServiceLimits)
        .where(sql`${tempoServiceLimits.service} = ${service}`);
      if (!row) return { ok: true };
      if (row.cooldownUntil && row.cooldownUntil > now) {
        return { ok: false, retryAt: row.cooldownUntil, reason: row.cooldownReason ?? 'cooling down' };
      }
      return { ok: false, retryAt: new Date(row.nextAt.getTime() - burstMs), reason: 'pacing' };
    },

    /**
     * How far ahead of `now` a service's pace is taken, in ms (slots reserved by callers waiting for them,
     * or a cooldown); 0 when nobody is waiting. A plain read: it takes no slot and locks nothing.
     */
    async paceAhead(service: string, now: Date): Promise<number> {
      const [row] = await db
        .select({ nextAt: tempoServiceLimits.nextAt, cooldownUntil: tempoServiceLimits.cooldownUntil })
        .from(tempoServiceLimits)
        .where(sql`${tempoServiceLimits.service} = ${service}`);
      if (!row) return 0;
      const until = Math.max(row.nextAt.getTime(), row.cooldownUntil?.getTime() ?? 0);
      return Math.max(0, until - now.getTime());
    },

    /** Makes every process leave a service alone until `until` (never shortens a longer cooldown). */
    async setCooldown(service: string, until: Date, reason: string): Promise<void> {
      await db
        .insert(tempoServiceLimits)
        .values({ service, nextAt: until, cooldownUntil: until, cooldownReason: reason })
        .onConflictDoUpdate({
          target: tempoServiceLimits.service,
          set: {
            cooldownUntil: sql`greatest(coalesce(${tempoServiceLimits.cooldownUntil}, excluded.cooldown_until), excluded.cooldown_until)`,
            cooldownReason: sql`excluded.cooldown_reason`,
          },
        });
    },
  };
}

export type TempoRepository = ReturnType<typeof createTempoRepository>;
