CREATE TABLE "playlist_target_tracks" (
	"target_id" uuid NOT NULL,
	"recording_key" text NOT NULL,
	"track_id" text NOT NULL,
	"state" text NOT NULL,
	"batch_id" uuid,
	"seq" integer DEFAULT 0 NOT NULL,
	"bpm" real,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"added_at" timestamp with time zone,
	"removed_at" timestamp with time zone,
	CONSTRAINT "playlist_target_tracks_target_id_recording_key_pk" PRIMARY KEY("target_id","recording_key")
);
--> statement-breakpoint
CREATE TABLE "playlist_targets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"min_bpm" real NOT NULL,
	"max_bpm" real NOT NULL,
	"name" text NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"playlist_id" text,
	"public_url" text,
	"snapshot_id" text,
	"snapshot_at" timestamp with time zone,
	"create_attempts" integer DEFAULT 0 NOT NULL,
	"creating_since" timestamp with time zone,
	"follow_checked_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"last_job_finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "playlist_targets_user_range_uq" UNIQUE("user_id","min_bpm","max_bpm")
);
--> statement-breakpoint
CREATE TABLE "playlist_writer_leases" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "playlist_target_tracks" ADD CONSTRAINT "playlist_target_tracks_target_id_playlist_targets_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."playlist_targets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playlist_targets" ADD CONSTRAINT "playlist_targets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playlist_writer_leases" ADD CONSTRAINT "playlist_writer_leases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "playlist_target_tracks_batch_idx" ON "playlist_target_tracks" USING btree ("target_id","batch_id");--> statement-breakpoint
CREATE INDEX "playlist_target_tracks_added_idx" ON "playlist_target_tracks" USING btree ("target_id","added_at");