CREATE TABLE "stream_reads" (
	"course_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	CONSTRAINT "stream_reads_pkey" PRIMARY KEY("course_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "post_id" uuid;--> statement-breakpoint
ALTER TABLE "stream_reads" ADD CONSTRAINT "stream_reads_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_reads" ADD CONSTRAINT "stream_reads_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stream_reads_user_idx" ON "stream_reads" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_post_idx" ON "files" USING btree ("post_id");