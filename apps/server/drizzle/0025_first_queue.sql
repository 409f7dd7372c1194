-- Runners short of their first 50 songs, in the order they first asked for a call at a first priority
-- (apps/server/src/spotify/budget.ts FIRST_PRIORITIES): a waiting one's place in the rate is theirs.
CREATE TABLE "spotify_first_queue" (
	"budget" text NOT NULL,
	"user_key" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"waiting_at" timestamp with time zone,
	"seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "spotify_first_queue_budget_user_key_pk" PRIMARY KEY("budget","user_key")
);
