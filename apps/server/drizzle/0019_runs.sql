CREATE TABLE "run_builds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL,
	"songs" jsonb NOT NULL,
	"spotify_state" text NOT NULL,
	"spotify_message" text,
	"spotify_calls" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"blocks" jsonb NOT NULL,
	"half_time" boolean DEFAULT true NOT NULL,
	"no_explicit" boolean DEFAULT false NOT NULL,
	"liked_only" boolean DEFAULT false NOT NULL,
	"playlist_id" text,
	"public_url" text,
	"sent_name" text,
	"sent_description" text,
	"creating_since" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "run_builds" ADD CONSTRAINT "run_builds_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "run_builds_run_idx" ON "run_builds" USING btree ("run_id","built_at");--> statement-breakpoint
CREATE UNIQUE INDEX "runs_user_name_key" ON "runs" USING btree ("user_id",lower("name"));