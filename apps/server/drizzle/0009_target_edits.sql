ALTER TABLE "playlist_targets" DROP CONSTRAINT "playlist_targets_user_range_uq";--> statement-breakpoint
ALTER TABLE "playlist_target_tracks" ADD COLUMN "remove_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "playlist_targets" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "playlist_targets" ADD COLUMN "spotify_name" text;--> statement-breakpoint
ALTER TABLE "playlist_targets" ADD COLUMN "details_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "playlist_targets" ADD COLUMN "details_synced_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "playlist_targets" ADD COLUMN "no_explicit" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "playlist_targets" ADD COLUMN "min_duration_ms" integer;--> statement-breakpoint
ALTER TABLE "playlist_targets" ADD COLUMN "max_duration_ms" integer;--> statement-breakpoint
ALTER TABLE "playlist_targets" ADD COLUMN "liked_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "playlist_targets_user_name_uq" ON "playlist_targets" USING btree ("user_id","name") WHERE "playlist_targets"."archived_at" is null;