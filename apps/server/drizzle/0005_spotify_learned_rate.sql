CREATE TABLE "spotify_budget_state" (
	"budget" text PRIMARY KEY NOT NULL,
	"learned_rate" integer NOT NULL,
	"learned_at" timestamp with time zone DEFAULT now() NOT NULL
);
