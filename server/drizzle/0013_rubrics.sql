ALTER TABLE "assignments" ADD COLUMN "rubric" jsonb;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "rubric_scores" jsonb;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "returned_rubric_scores" jsonb;