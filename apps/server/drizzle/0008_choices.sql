CREATE TABLE "tempo_corrections" (
	"user_id" uuid NOT NULL,
	"recording_key" text NOT NULL,
	"bpm" real NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tempo_corrections_user_id_recording_key_pk" PRIMARY KEY("user_id","recording_key")
);
--> statement-breakpoint
CREATE TABLE "track_exclusions" (
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "track_exclusions_user_id_kind_key_pk" PRIMARY KEY("user_id","kind","key")
);
--> statement-breakpoint
ALTER TABLE "tempo_corrections" ADD CONSTRAINT "tempo_corrections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_exclusions" ADD CONSTRAINT "track_exclusions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "track_exclusions_user_created_idx" ON "track_exclusions" USING btree ("user_id","created_at");