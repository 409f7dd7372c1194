-- Tempos cached before a tempo needed two independent analyses to be trusted (issue 11): a lone source's
-- answer was stored at its own confidence (0.8-0.9), above the playlists' threshold, and never looked up
-- again. They are marked for a new lookup now; the library scans' sweep queues them (needsTempoLookup) and
-- the resolver checks them like any new track. ReccoBeats mirrors Spotify's analysis: one family.
UPDATE "tempo_recordings" SET "retry_at" = now()
WHERE "bpm" IS NOT NULL AND "retry_at" IS NULL AND "confidence" >= 0.76
  AND (SELECT count(DISTINCT CASE WHEN a->>'source' IN ('spotify', 'reccobeats') THEN 'spotify' ELSE a->>'source' END)
       FROM jsonb_array_elements("alternatives") AS a) < 2;
