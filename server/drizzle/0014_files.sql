CREATE TABLE "files" (
	"id" uuid PRIMARY KEY NOT NULL,
	"uploader_id" uuid,
	"purpose" text NOT NULL,
	"target_id" uuid,
	"student_id" uuid,
	"course_id" uuid,
	"submission_id" uuid,
	"name" text NOT NULL,
	"declared_size" bigint NOT NULL,
	"received_size" bigint DEFAULT 0 NOT NULL,
	"stored_size" bigint,
	"mime" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp with time zone,
	CONSTRAINT "files_status_check" CHECK ("files"."status" in ('pending', 'ready')),
	CONSTRAINT "files_purpose_check" CHECK ("files"."purpose" in ('assignment', 'submission', 'feedback', 'post', 'comment')),
	CONSTRAINT "files_size_check" CHECK ("files"."declared_size" >= 0 and "files"."received_size" >= 0)
);
--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_uploader_id_profiles_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_target_id_assignments_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."assignments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_student_id_profiles_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_target_idx" ON "files" USING btree ("target_id","purpose");--> statement-breakpoint
CREATE INDEX "files_uploader_idx" ON "files" USING btree ("uploader_id");--> statement-breakpoint
CREATE INDEX "files_submission_idx" ON "files" USING btree ("submission_id");--> statement-breakpoint
CREATE INDEX "files_status_created_idx" ON "files" USING btree ("status","created_at");