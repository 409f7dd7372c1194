-- Budgets are kept per Spotify app (client id): call slots and cooldowns carry the budget they belong to.
ALTER TABLE "spotify_cooldowns" DROP CONSTRAINT "spotify_cooldowns_pkey";--> statement-breakpoint
ALTER TABLE "spotify_call_slots" ADD COLUMN "budget" text DEFAULT 'app' NOT NULL;--> statement-breakpoint
ALTER TABLE "spotify_cooldowns" ADD COLUMN "budget" text DEFAULT 'app' NOT NULL;--> statement-breakpoint
ALTER TABLE "spotify_cooldowns" ADD CONSTRAINT "spotify_cooldowns_budget_kind_pk" PRIMARY KEY("budget","kind");--> statement-breakpoint
CREATE INDEX "spotify_call_slots_budget_at_idx" ON "spotify_call_slots" USING btree ("budget","at");
