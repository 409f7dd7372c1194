CREATE TABLE "spotify_accounts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"spotify_user_id" text NOT NULL,
	"display_name" text,
	"scopes" text NOT NULL,
	"refresh_token_enc" text NOT NULL,
	"access_token_enc" text,
	"access_expires_at" timestamp with time zone,
	"authorized_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_reason" text,
	"disabled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "spotify_accounts_account_id_unique" UNIQUE("account_id")
);
--> statement-breakpoint
CREATE TABLE "spotify_call_ledger" (
	"day" date NOT NULL,
	"user_key" text NOT NULL,
	"endpoint" text NOT NULL,
	"purpose" text NOT NULL,
	"priority" smallint NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "spotify_call_ledger_day_user_key_endpoint_purpose_pk" PRIMARY KEY("day","user_key","endpoint","purpose")
);
--> statement-breakpoint
CREATE TABLE "spotify_call_slots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"priority" smallint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spotify_capabilities" (
	"capability" text PRIMARY KEY NOT NULL,
	"available" boolean NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spotify_cooldowns" (
	"kind" text PRIMARY KEY NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL,
	"detail" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "spotify_accounts" ADD CONSTRAINT "spotify_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "spotify_call_ledger_user_idx" ON "spotify_call_ledger" USING btree ("user_key");--> statement-breakpoint
CREATE INDEX "spotify_call_slots_at_idx" ON "spotify_call_slots" USING btree ("at");