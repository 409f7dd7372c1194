CREATE TABLE "meter_corrections" (
	"user_id" uuid NOT NULL,
	"recording_key" text NOT NULL,
	"meter" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meter_corrections_user_id_recording_key_pk" PRIMARY KEY("user_id","recording_key")
);
--> statement-breakpoint
ALTER TABLE "tempo_recordings" ADD COLUMN "meter" text;--> statement-breakpoint
ALTER TABLE "tempo_recordings" ADD COLUMN "meter_confidence" real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "playlist_targets" ADD COLUMN "meters_included" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "meter_corrections" ADD CONSTRAINT "meter_corrections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;