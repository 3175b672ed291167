CREATE TABLE "submission_drafts" (
	"assignment_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"content" text NOT NULL,
	"version" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "submission_drafts_assignment_id_student_id_pk" PRIMARY KEY("assignment_id","student_id"),
	CONSTRAINT "submission_drafts_version_check" CHECK ("submission_drafts"."version" > 0)
);
--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "idempotency_key" uuid;--> statement-breakpoint
ALTER TABLE "submission_drafts" ADD CONSTRAINT "submission_drafts_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_drafts" ADD CONSTRAINT "submission_drafts_student_id_profiles_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "submission_drafts_student_id_idx" ON "submission_drafts" USING btree ("student_id");--> statement-breakpoint
CREATE UNIQUE INDEX "submissions_student_idempotency_key" ON "submissions" USING btree ("student_id","idempotency_key");