ALTER TABLE "playlist_targets" ADD COLUMN "full_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "playlist_targets" ADD COLUMN "continues_id" uuid;--> statement-breakpoint
ALTER TABLE "playlist_targets" ADD COLUMN "write_refused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "playlist_targets" ADD COLUMN "write_refusal" text;