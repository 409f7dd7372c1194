CREATE TABLE "spotify_app" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"set_by" uuid,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "spotify_app" ADD CONSTRAINT "spotify_app_set_by_users_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Issue 26: the client id saved on the setup page takes effect in every process at once (their caches of
-- it drop on `spotify_app:spotify`; see 0012_live_cache_notify for the function).
CREATE TRIGGER spotify_app_notify_change AFTER INSERT OR UPDATE OR DELETE
  ON spotify_app FOR EACH ROW EXECUTE FUNCTION pacebeat_notify_change('spotify_app', 'id');
