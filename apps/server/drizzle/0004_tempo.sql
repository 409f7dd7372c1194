CREATE TABLE "tempo_recordings" (
	"key" text PRIMARY KEY NOT NULL,
	"isrc" text,
	"spotify_id" text,
	"bpm" real,
	"source" text,
	"confidence" real DEFAULT 0 NOT NULL,
	"alternatives" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reason" text,
	"retry_at" timestamp with time zone,
	"attempts" integer DEFAULT 1 NOT NULL,
	"resolved_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tempo_service_limits" (
	"service" text PRIMARY KEY NOT NULL,
	"next_at" timestamp with time zone NOT NULL,
	"cooldown_until" timestamp with time zone,
	"cooldown_reason" text
);
--> statement-breakpoint
CREATE INDEX "tempo_recordings_retry_at_idx" ON "tempo_recordings" USING btree ("retry_at");