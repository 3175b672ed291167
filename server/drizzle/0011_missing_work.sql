ALTER TABLE "submissions" ALTER COLUMN "content" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ALTER COLUMN "submitted_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "missing_counts_as_zero" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_missing_work_check" CHECK (("submissions"."submitted_at" is null) = ("submissions"."content" is null) and ("submissions"."submitted_at" is not null or "submissions"."grade" is not null));