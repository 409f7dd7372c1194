// The status page's counts: songs each source holds and how many have a tempo (reads the tempo cache,
// tempo_recordings, by recording key), and the library at a glance. The aggregates are read-only; their
// results are stored per user (library_source_counts), so a status page poll reads one row.
//
// Every count here means what the tempo chart's does (so the page's numbers agree): a song
// is a recording (`recording_key`: one however many tracks carry it), and "with a tempo" is a tempo the
// playlists' writer trusts (above 0 BPM, confidence at least `minConfidence`); anything else is "without".
import { sql } from 'drizzle-orm';
import { type Db, noFlush } from '../db/client.ts';
import { MIN_CONFIDENCE } from '../playlists/matching.ts';
import { userTracksCte } from './artist-set.repository.ts';

export interface SourceCounts {
  knownTracks: number;
  tracksWithTempo: number;
}

export interface CatalogCounts extends SourceCounts {
  /** Artists whose catalogs the source covers, and how many of those catalogs are read. */
  artists: number;
  artistsRead: number;
  /** Of those artists, how many have their whole releases listing read (so every release is known). */
  artistsListed: number;
  /** Releases listed for those artists, and how many of them have every track read. */
  releases: number;
  releasesRead: number;
}

/** The three results of `snapshot`. */
export interface Counts {
  members: Map<number, SourceCounts>;
  catalogs: Map<string, CatalogCounts>;
  summary: SourceCounts;
}

/** A user's stored counts as a read finds them. */
export interface StoredCounts {
  /** When the counted snapshot began (PostgreSQL's text of `computed_at`): the row's version. */
  at: string;
  /** Absent when the caller already holds the counts of this `at`. */
  counts?: Counts;
  /** How long ago `at` was, and the first change not yet counted (null: none). */
  ageMs: number;
  pendingMs: number | null;
}

type CountsJson = {
  members: [number, SourceCounts][];
  catalogs: [string, CatalogCounts][];
  summary: SourceCounts;
};
const toJson = (c: Counts): CountsJson => ({
  members: [...c.members],
  catalogs: [...c.catalogs],
  summary: c.summary,
});
const fromJson = (j: CountsJson): Counts => ({
  members: new Map(j.members),
  catalogs: new Map(j.catalogs),
  summary: j.summary,
});

export function createSourceStatsRepository(db: Db, o: { minConfidence?: number } = {}) {
  const minConfidence = o.minConfidence ?? MIN_CONFIDENCE;
  /** The join that finds a trusted tempo of library track `t`'s recording (as `tr`). */
  const trusted = sql`tr.key = t.recording_key and tr.bpm > 0 and tr.confidence >= ${minConfidence}`;
  type Executor = Pick<Db, 'execute'>;

  type MemberRow = { source_ref: string | number; known: number; with_tempo: number };
  type CatalogRow = {
    kind: string;
    artists: number;
    artists_read: number;
    artists_listed: number;
    releases: number;
    releases_read: number;
    known: number;
    with_tempo: number;
  };
  type SummaryRow = { known: number; with_tempo: number };

  // Each count is a query (a fragment) and the mapping of its rows, so `counted` can read all three in one
  // statement.
  const memberQuery = (userId: string) => sql`
    select st.source_ref, count(distinct t.recording_key)::int as known,
           count(distinct t.recording_key) filter (where tr.key is not null)::int as with_tempo
    from library_source_tracks st
    join library_sources s on s.id = st.source_ref and s.user_id = ${userId}
    join library_tracks t on t.id = st.track_id
    left join tempo_recordings tr on ${trusted}
    group by st.source_ref`;
  const members = (rows: MemberRow[]) =>
    new Map(rows.map((r) => [Number(r.source_ref), { knownTracks: r.known, tracksWithTempo: r.with_tempo }]));

  const catalogQuery = (userId: string) => sql`
    with mine as (select id, kind, enabled from library_sources where user_id = ${userId}),
    sets as (
      select 'followed_artists' as kind, sa.artist_id
      from library_source_artists sa join mine m on m.id = sa.source_ref and m.kind = 'followed_artists'
      union
      select 'artist_catalogs' as kind, x.artist_id
      from library_source_tracks st
      join mine m on m.id = st.source_ref and m.enabled and m.kind in ('liked_songs', 'playlist')
      join library_tracks t on t.id = st.track_id
      cross join lateral unnest(t.artist_ids) as x(artist_id)),
    artists as (
      select s.kind, count(*)::int as artists, count(a.catalog_read_at)::int as artists_read,
             count(*) filter (where a.catalog_offset >= a.catalog_total)::int as artists_listed
      from sets s left join library_artists a on a.id = s.artist_id group by s.kind),
    -- One walk over the artists' releases counts both the releases (read or not) and their tracks.
    catalog as (
      select s.kind, count(distinct r.id)::int as releases,
             count(distinct r.id) filter (where r.read_at is not null)::int as releases_read,
             count(distinct t.recording_key)::int as known,
             count(distinct t.recording_key) filter (where tr.key is not null)::int as with_tempo
      from sets s
      join library_artist_releases ar on ar.artist_id = s.artist_id
      left join library_releases r on r.id = ar.release_id
      left join library_tracks t on t.release_id = ar.release_id and s.artist_id = any(t.artist_ids)
      left join tempo_recordings tr on ${trusted}
      group by s.kind)
    select a.kind, a.artists, a.artists_read, a.artists_listed,
           coalesce(c.releases, 0) as releases, coalesce(c.releases_read, 0) as releases_read,
           coalesce(c.known, 0) as known, coalesce(c.with_tempo, 0) as with_tempo
    from artists a left join catalog c on c.kind = a.kind`;
  const catalogs = (rows: CatalogRow[]) =>
    new Map(
      rows.map((r) => [
        r.kind,
        {
          artists: r.artists,
          artistsRead: r.artists_read,
          artistsListed: r.artists_listed,
          releases: r.releases,
          releasesRead: r.releases_read,
          knownTracks: r.known,
          tracksWithTempo: r.with_tempo,
        },
      ]),
    );

  const summaryQuery = (userId: string) => sql`
    with ${userTracksCte(userId)}
    select count(distinct t.recording_key)::int as known,
           count(distinct t.recording_key) filter (where tr.key is not null)::int as with_tempo
    from user_tracks x
    join library_tracks t on t.id = x.track_id
    left join tempo_recordings tr on ${trusted}`;
  const summary = (r: SummaryRow | undefined | null): SourceCounts => ({
    knownTracks: r?.known ?? 0,
    tracksWithTempo: r?.with_tempo ?? 0,
  });

  const repo = {
    /** Per Liked Songs or playlist source (by source row id): songs held and songs with a tempo. */
    async memberCounts(userId: string, x: Executor = db): Promise<Map<number, SourceCounts>> {
      return members((await x.execute<MemberRow>(memberQuery(userId))).rows);
    },

    /**
     * For Followed artists (its artists' catalogs) and Artist catalogs (the catalogs of the artists of
     * the enabled Liked Songs and playlists), whether or not the source itself is enabled.
     */
    async catalogCounts(userId: string, x: Executor = db): Promise<Map<string, CatalogCounts>> {
      return catalogs((await x.execute<CatalogRow>(catalogQuery(userId))).rows);
    },

    /** Songs of the enabled sources (what matching sees, and the tempo chart counts), and how many have a
     *  tempo: the chart's figures. */
    async summary(userId: string, x: Executor = db): Promise<SourceCounts> {
      return summary((await x.execute<SummaryRow>(summaryQuery(userId))).rows[0]);
    },

    /** The three at one moment (see `counted`). */
    async snapshot(userId: string): Promise<Counts> {
      return (await repo.counted(userId)).counts;
    },

    /**
     * The three at one moment, with that moment (PostgreSQL's text of the statement's `now()`): one
     * statement, so one snapshot (a scan storing a page meanwhile cannot make the summary and the source
     * rows disagree) and one round trip. It was a repeatable-read transaction of five: at 1,000 runners the
     * serve process's connections sat idle in those transactions, waiting for its own busy event loop
     * between statements, until status reads queued for a connection for seconds.
     */
    async counted(userId: string): Promise<{ counts: Counts; at: string }> {
      const rows = await db.execute<{
        at: string;
        members: MemberRow[];
        catalogs: CatalogRow[];
        summary: SummaryRow | null;
      }>(sql`
        select now()::text as at,
               coalesce((select json_agg(m) from (${memberQuery(userId)}) m), '[]'::json) as members,
               coalesce((select json_agg(c) from (${catalogQuery(userId)}) c), '[]'::json) as catalogs,
               (select row_to_json(s) from (${summaryQuery(userId)}) s) as summary`);
      const r = rows.rows[0]!;
      return {
        at: r.at,
        counts: { members: members(r.members), catalogs: catalogs(r.catalogs), summary: summary(r.summary) },
      };
    },

    /**
     * Counts the user's library now and stores it (unless a newer count is stored, or the library is
     * gone); answers the counts. Changes marked up to the count's moment are cleared: they are in it.
     */
    async recount(userId: string): Promise<Counts> {
      const { counts, at } = await repo.counted(userId);
      // No change marked (changed_at null) leaves nothing pending. It used to take the else branch
      // ("null <= …" is null), so each recount marked its own moment pending and a read 30 s later
      // recounted again, every user, for ever: at 1,000 runners 8 recounts a second that nothing asked for.
      // Counts lost in a crash are counted again: the store does not wait for the disk.
      await db.execute(sql`
        ${noFlush}
        insert into library_source_counts as c (user_id, counts, computed_at)
        select ${userId}, ${JSON.stringify(toJson(counts))}::jsonb, ${at}::timestamptz
        where exists (select 1 from library_users where user_id = ${userId}) and exists (select from no_flush)
        on conflict (user_id) do update set
          counts = excluded.counts, computed_at = excluded.computed_at,
          changed_at = case when c.changed_at <= excluded.computed_at then null else c.changed_at end,
          pending_since = case when c.changed_at is null or c.changed_at <= excluded.computed_at then null
                               else greatest(c.pending_since, excluded.computed_at) end
        where c.computed_at <= excluded.computed_at`);
      return counts;
    },

    /** The stored counts, without them when `knownAt` is the stored version; undefined when none. */
    async stored(userId: string, knownAt?: string): Promise<StoredCounts | undefined> {
      const rows = await db.execute<{
        at: string;
        counts: CountsJson | null;
        age_ms: number;
        pending_ms: number | null;
      }>(sql`
        select computed_at::text as at,
               case when computed_at::text = ${knownAt ?? ''} then null else counts end as counts,
               (extract(epoch from now() - computed_at) * 1000)::float8 as age_ms,
               (extract(epoch from now() - pending_since) * 1000)::float8 as pending_ms
        from library_source_counts where user_id = ${userId}`);
      const r = rows.rows[0];
      if (!r) return undefined;
      return {
        at: r.at,
        ...(r.counts ? { counts: fromJson(r.counts) } : {}),
        ageMs: r.age_ms,
        pendingMs: r.pending_ms,
      };
    },

    /** Something the counts depend on changed for the user: false when nothing is stored (nothing to mark). */
    async markChanged(userId: string): Promise<boolean> {
      const rows = await db.execute(sql`
        update library_source_counts set changed_at = now(), pending_since = coalesce(pending_since, now())
        where user_id = ${userId} returning user_id`);
      return rows.rows.length > 0;
    },

    /** Every user's counts may have changed (the tempo cache emptied): each is recounted at its next read. */
    async markAllChanged(): Promise<void> {
      await db.execute(sql`
        update library_source_counts set changed_at = now(), pending_since = coalesce(pending_since, now())`);
    },
  };
  return repo;
}
export type SourceStatsRepository = ReturnType<typeof createSourceStatsRepository>;
