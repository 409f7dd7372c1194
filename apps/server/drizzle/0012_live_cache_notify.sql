-- Cross-process cache invalidation (apps/server/src/cache): every change that ends a session or changes what
-- whoami shows NOTIFYs `pacebeat_changes` with `kind:key` (sent at commit, to every listening process).
-- Triggers, not application code, so no path that ends a session (logout, password reset, account deletion
-- by cascade, an operator's SQL) can forget to tell the caches.
CREATE OR REPLACE FUNCTION pacebeat_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
BEGIN
  -- TG_ARGV[0]: the tag kind; TG_ARGV[1]: the column that keys it.
  PERFORM pg_notify('pacebeat_changes', TG_ARGV[0] || ':' || (r ->> TG_ARGV[1]));
  IF TG_OP = 'UPDATE' AND (to_jsonb(OLD) ->> TG_ARGV[1]) IS DISTINCT FROM (r ->> TG_ARGV[1]) THEN
    PERFORM pg_notify('pacebeat_changes', TG_ARGV[0] || ':' || (to_jsonb(OLD) ->> TG_ARGV[1]));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A session ends (logout, rotation, password reset, expiry sweep, its user deleted). The idle-expiry touch
-- (last_seen_at, expires_at) does not notify: a cached copy with an older expiry only expires sooner.
CREATE TRIGGER sessions_notify_change AFTER DELETE OR UPDATE OF id, user_id, absolute_expires_at, time_zone
  ON sessions FOR EACH ROW EXECUTE FUNCTION pacebeat_notify_change('session', 'id');
--> statement-breakpoint
-- A user's name, email, admin flag, password or sign-in identity changes, or the user is deleted.
CREATE TRIGGER users_notify_change AFTER UPDATE OR DELETE
  ON users FOR EACH ROW EXECUTE FUNCTION pacebeat_notify_change('user', 'id');
--> statement-breakpoint
-- Connect, reconnect, disconnect, a disabled mark (whoami's connect status).
CREATE TRIGGER spotify_accounts_notify_change AFTER INSERT OR UPDATE OR DELETE
  ON spotify_accounts FOR EACH ROW EXECUTE FUNCTION pacebeat_notify_change('spotify', 'user_id');
--> statement-breakpoint
-- A cooldown starts, moves or ends (whoami's work_resumes_at).
CREATE TRIGGER spotify_cooldowns_notify_change AFTER INSERT OR UPDATE OR DELETE
  ON spotify_cooldowns FOR EACH ROW EXECUTE FUNCTION pacebeat_notify_change('budget', 'budget');
--> statement-breakpoint
-- A target is added, edited, archived or its playlist state moves (GET targets).
CREATE TRIGGER playlist_targets_notify_change AFTER INSERT OR UPDATE OR DELETE
  ON playlist_targets FOR EACH ROW EXECUTE FUNCTION pacebeat_notify_change('targets', 'user_id');
--> statement-breakpoint
-- The writer places, removes or re-states tracks: once per statement and user (a batch is one notification),
-- so a sync of thousands of rows costs one `select distinct`, not a trigger call per row.
CREATE OR REPLACE FUNCTION pacebeat_notify_target_tracks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  u uuid;
BEGIN
  FOR u IN SELECT DISTINCT t.user_id FROM changed_rows c JOIN playlist_targets t ON t.id = c.target_id LOOP
    PERFORM pg_notify('pacebeat_changes', 'targets:' || u);
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER playlist_target_tracks_notify_insert AFTER INSERT ON playlist_target_tracks
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION pacebeat_notify_target_tracks();
--> statement-breakpoint
CREATE TRIGGER playlist_target_tracks_notify_update AFTER UPDATE ON playlist_target_tracks
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION pacebeat_notify_target_tracks();
--> statement-breakpoint
CREATE TRIGGER playlist_target_tracks_notify_delete AFTER DELETE ON playlist_target_tracks
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION pacebeat_notify_target_tracks();
--> statement-breakpoint
-- A source is found, switched, or its scan moves on (GET sources: the rows; the counts are cached 2 s).
CREATE TRIGGER library_sources_notify_change AFTER INSERT OR UPDATE OR DELETE
  ON library_sources FOR EACH ROW EXECUTE FUNCTION pacebeat_notify_change('sources', 'user_id');
