-- A rate-limit reservation (apps/server/src/accounts/auth-attempt.repository.ts) in one round trip. It was a
-- transaction of 4-6 statements (begin, a lock per key, the count, the insert, commit) that held its advisory
-- locks while the process's event loop took each answer: at 1,000 runners arriving from one address, every
-- sign-up and connect queued on the address's lock behind others' round trips. In this function each
-- statement takes a new snapshot (read committed, volatile), so the count after the locks sees what their
-- previous holders committed, as the separate statements did. `p_limits`: [{"key": …, "max": …}, …].
CREATE OR REPLACE FUNCTION pacebeat_reserve_attempts(
  p_kind text, p_limits jsonb, p_since timestamptz, p_failed_only boolean, p_failed boolean
) RETURNS bigint[] LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  k text;
  ids bigint[];
BEGIN
  -- One lock per key, in a fixed order, so two reservations never deadlock.
  FOR k IN SELECT DISTINCT l.key FROM jsonb_to_recordset(p_limits) AS l(key text) ORDER BY l.key LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended('auth:' || p_kind || ':' || k, 0));
  END LOOP;
  IF EXISTS (
    SELECT 1 FROM jsonb_to_recordset(p_limits) AS l(key text, max int)
    WHERE (SELECT count(*) FROM auth_attempts a
           WHERE a.kind = p_kind AND a.key = l.key AND a.at > p_since AND (NOT p_failed_only OR a.failed)) >= l.max
  ) THEN
    RETURN NULL;
  END IF;
  WITH inserted AS (
    INSERT INTO auth_attempts (kind, key, failed)
    SELECT DISTINCT p_kind, l.key, p_failed FROM jsonb_to_recordset(p_limits) AS l(key text)
    RETURNING id
  )
  SELECT array_agg(id ORDER BY id) INTO ids FROM inserted;
  RETURN ids;
END
$$;
