ALTER TABLE "submissions" ADD COLUMN "returned_grade" integer;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "returned_feedback" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "returned_graded_at" timestamp with time zone;--> statement-breakpoint
-- Grades returned before these columns existed are what their students see: a returned grade was
-- never changed silently until now (a regrade of a returned grade reached the student at once).
UPDATE "submissions" SET "returned_grade" = "grade", "returned_feedback" = "feedback", "returned_graded_at" = "graded_at" WHERE "returned_at" IS NOT NULL;
