-- The user's own playlists as the library's discovery lists them (library.schema.ts `own_playlists`): the
-- writer's look for an earlier connection's playlists reads them here instead of `GET /me/playlists` again.
ALTER TABLE "library_users" ADD COLUMN "own_playlists" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "library_users" ADD COLUMN "own_playlists_at" timestamp with time zone;