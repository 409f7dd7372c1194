CREATE TABLE "library_source_counts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"counts" jsonb NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	"changed_at" timestamp with time zone,
	"pending_since" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "library_source_counts" ADD CONSTRAINT "library_source_counts_user_id_library_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."library_users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A user's status page counts were recounted, or deleted with the library (GET sources' cached counts).
-- Marking a change (changed_at, pending_since) does not notify: the counts a reader holds are still those.
CREATE TRIGGER library_source_counts_notify_change AFTER INSERT OR DELETE OR UPDATE OF counts, computed_at
  ON library_source_counts FOR EACH ROW EXECUTE FUNCTION pacebeat_notify_change('counts', 'user_id');
