CREATE TABLE "excusals" (
	"assignment_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "excusals_pkey" PRIMARY KEY("assignment_id","student_id")
);
--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "grade_release" text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "closes_at_due" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "returned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "graded_by" uuid;--> statement-breakpoint
ALTER TABLE "excusals" ADD CONSTRAINT "excusals_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "excusals" ADD CONSTRAINT "excusals_student_id_profiles_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "excusals_student_id_idx" ON "excusals" USING btree ("student_id");--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_graded_by_profiles_id_fk" FOREIGN KEY ("graded_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_grade_release_check" CHECK ("assignments"."grade_release" in ('auto', 'manual'));--> statement-breakpoint
-- Backfill (issue 13): grades given before release existed reached their students at once, so they
-- count as returned (every existing assignment releases automatically), at version 1, by the teacher.
UPDATE "submissions" AS s
SET "returned_at" = coalesce(s."graded_at", now()), "version" = 1, "graded_by" = c."teacher_id"
FROM "assignments" AS a, "courses" AS c
WHERE s."grade" IS NOT NULL AND a."id" = s."assignment_id" AND c."id" = a."course_id";
