CREATE TABLE "course_members" (
	"course_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"status" text NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "course_members_pkey" PRIMARY KEY("course_id","student_id"),
	CONSTRAINT "course_members_status_check" CHECK ("course_members"."status" in ('active', 'left', 'removed'))
);
--> statement-breakpoint
-- Hand-written data part (drizzle-kit would add join_code NOT NULL at once, which fails on existing rows):
-- add it nullable, give every existing course a random code from the join-code alphabet (retrying the
-- rare collision), then make it NOT NULL. Plain SQL and PL/pgSQL only: runs on PGlite and PostgreSQL 15.
ALTER TABLE "courses" ADD COLUMN "join_code" text;--> statement-breakpoint
DO $$
DECLARE
  alphabet constant text := 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
  course record;
  candidate text;
BEGIN
  FOR course IN SELECT "id" FROM "courses" WHERE "join_code" IS NULL LOOP
    LOOP
      SELECT string_agg(substr(alphabet, 1 + floor(random() * length(alphabet))::int, 1), '')
        INTO candidate FROM generate_series(1, 8);
      EXIT WHEN NOT EXISTS (SELECT 1 FROM "courses" WHERE "join_code" = candidate);
    END LOOP;
    UPDATE "courses" SET "join_code" = candidate WHERE "id" = course."id";
  END LOOP;
END
$$;--> statement-breakpoint
ALTER TABLE "courses" ALTER COLUMN "join_code" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "join_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "course_members" ADD CONSTRAINT "course_members_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_members" ADD CONSTRAINT "course_members_student_id_profiles_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_members_student_id_idx" ON "course_members" USING btree ("student_id","course_id");--> statement-breakpoint
CREATE UNIQUE INDEX "courses_join_code_key" ON "courses" USING btree ("join_code");--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_join_code_check" CHECK ("courses"."join_code" ~ '^[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{8}$');--> statement-breakpoint
-- Hand-written data part: before classes every student saw every course; a student who already
-- submitted to a course becomes its active member (DESIGN §11), joined at their first submission.
INSERT INTO "course_members" ("course_id", "student_id", "status", "joined_at")
SELECT "assignments"."course_id", "submissions"."student_id", 'active', min("submissions"."submitted_at")
FROM "submissions"
INNER JOIN "assignments" ON "assignments"."id" = "submissions"."assignment_id"
INNER JOIN "profiles" ON "profiles"."id" = "submissions"."student_id" AND "profiles"."role" = 'student'
GROUP BY "assignments"."course_id", "submissions"."student_id";
