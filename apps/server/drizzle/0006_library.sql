CREATE TABLE "library_artist_releases" (
	"artist_id" text NOT NULL,
	"release_id" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "library_artist_releases_artist_id_release_id_pk" PRIMARY KEY("artist_id","release_id")
);
--> statement-breakpoint
CREATE TABLE "library_artists" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"catalog_groups" text,
	"catalog_total" integer,
	"catalog_offset" integer DEFAULT 0 NOT NULL,
	"catalog_read_at" timestamp with time zone,
	"catalog_checked_at" timestamp with time zone,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "library_releases" (
	"id" text PRIMARY KEY NOT NULL,
	"album_type" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"release_date" text DEFAULT '' NOT NULL,
	"total_tracks" integer DEFAULT 0 NOT NULL,
	"tracks_read" integer DEFAULT 0 NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "library_source_artists" (
	"source_ref" bigint NOT NULL,
	"artist_id" text NOT NULL,
	"position" integer NOT NULL,
	"pass" integer NOT NULL,
	CONSTRAINT "library_source_artists_source_ref_artist_id_pk" PRIMARY KEY("source_ref","artist_id")
);
--> statement-breakpoint
CREATE TABLE "library_source_tracks" (
	"source_ref" bigint NOT NULL,
	"track_id" text NOT NULL,
	"added_at" timestamp with time zone,
	"position" integer NOT NULL,
	"pass" integer NOT NULL,
	CONSTRAINT "library_source_tracks_source_ref_track_id_pk" PRIMARY KEY("source_ref","track_id")
);
--> statement-breakpoint
CREATE TABLE "library_sources" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"source_id" text NOT NULL,
	"name" text NOT NULL,
	"owner_name" text,
	"readable" boolean DEFAULT true NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"seen_pass" integer DEFAULT 0 NOT NULL,
	"snapshot" text,
	"read_snapshot" text,
	"total" integer,
	"cursor" jsonb,
	"pass" integer DEFAULT 0 NOT NULL,
	"pages_read" integer DEFAULT 0 NOT NULL,
	"pages_total" integer,
	"items_read" integer DEFAULT 0 NOT NULL,
	"state" text DEFAULT 'idle' NOT NULL,
	"error" text,
	"failures" integer DEFAULT 0 NOT NULL,
	"resumes_at" timestamp with time zone,
	"due_at" timestamp with time zone DEFAULT now(),
	"last_finished_at" timestamp with time zone,
	"full_read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "library_tracks" (
	"id" text PRIMARY KEY NOT NULL,
	"isrc" text,
	"recording_key" text NOT NULL,
	"title" text NOT NULL,
	"artist_ids" text[] NOT NULL,
	"duration_ms" integer NOT NULL,
	"explicit" boolean NOT NULL,
	"release_id" text,
	"track_number" smallint,
	"tempo_queued_key" text,
	"tempo_queued_at" timestamp with time zone,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "library_user_artists" (
	"user_id" uuid NOT NULL,
	"artist_id" text NOT NULL,
	"weight" integer NOT NULL,
	CONSTRAINT "library_user_artists_user_id_artist_id_pk" PRIMARY KEY("user_id","artist_id")
);
--> statement-breakpoint
CREATE TABLE "library_users" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"spotify_user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rescan_requested_at" timestamp with time zone,
	"discovery_offset" integer,
	"discovery_pass" integer DEFAULT 0 NOT NULL,
	"discovered_at" timestamp with time zone,
	"discovery_due_at" timestamp with time zone DEFAULT now(),
	"artists_stale" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "library_source_artists" ADD CONSTRAINT "library_source_artists_source_ref_library_sources_id_fk" FOREIGN KEY ("source_ref") REFERENCES "public"."library_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_source_tracks" ADD CONSTRAINT "library_source_tracks_source_ref_library_sources_id_fk" FOREIGN KEY ("source_ref") REFERENCES "public"."library_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_sources" ADD CONSTRAINT "library_sources_user_id_library_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."library_users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_user_artists" ADD CONSTRAINT "library_user_artists_user_id_library_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."library_users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "library_users" ADD CONSTRAINT "library_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "library_artist_releases_release_idx" ON "library_artist_releases" USING btree ("release_id");--> statement-breakpoint
CREATE UNIQUE INDEX "library_sources_user_kind_source_idx" ON "library_sources" USING btree ("user_id","kind","source_id");--> statement-breakpoint
CREATE INDEX "library_tracks_release_idx" ON "library_tracks" USING btree ("release_id");--> statement-breakpoint
CREATE INDEX "library_tracks_recording_idx" ON "library_tracks" USING btree ("recording_key");