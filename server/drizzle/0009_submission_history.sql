CREATE TABLE "submission_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "submission_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"assignment_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"submission_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "submission_events_kind_check" CHECK ("submission_events"."kind" in ('submitted', 'unsubmitted'))
);
--> statement-breakpoint
ALTER TABLE "submission_events" ADD CONSTRAINT "submission_events_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_events" ADD CONSTRAINT "submission_events_student_id_profiles_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "submission_events_assignment_student_idx" ON "submission_events" USING btree ("assignment_id","student_id","at");--> statement-breakpoint
CREATE INDEX "submission_events_student_id_idx" ON "submission_events" USING btree ("student_id");--> statement-breakpoint
-- Submissions made before this table existed: their submit is the one event known (earlier
-- submits and unsubmits were not recorded).
INSERT INTO "submission_events" ("assignment_id", "student_id", "submission_id", "kind", "at") SELECT "assignment_id", "student_id", "id", 'submitted', "submitted_at" FROM "submissions" ORDER BY "submitted_at", "id";
