CREATE TABLE "lesson_answers" (
	"question_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"answer" jsonb NOT NULL,
	"answered_at" timestamp with time zone NOT NULL,
	CONSTRAINT "lesson_answers_pkey" PRIMARY KEY("question_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "lesson_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lesson_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"prompt" text NOT NULL,
	"options" jsonb NOT NULL,
	"correct" jsonb,
	"anonymous" boolean DEFAULT false NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "lesson_questions_kind_check" CHECK ("lesson_questions"."kind" in ('multiple_choice', 'true_false', 'number', 'short_answer', 'poll')),
	CONSTRAINT "lesson_questions_anonymous_check" CHECK (not "lesson_questions"."anonymous" or "lesson_questions"."kind" = 'poll')
);
--> statement-breakpoint
CREATE TABLE "lessons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"course_id" uuid NOT NULL,
	"started_by" uuid,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"assignment_id" uuid
);
--> statement-breakpoint
ALTER TABLE "lesson_answers" ADD CONSTRAINT "lesson_answers_question_id_lesson_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."lesson_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_answers" ADD CONSTRAINT "lesson_answers_student_id_profiles_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_questions" ADD CONSTRAINT "lesson_questions_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_started_by_profiles_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lesson_answers_student_idx" ON "lesson_answers" USING btree ("student_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lesson_questions_position_key" ON "lesson_questions" USING btree ("lesson_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "lesson_questions_open_key" ON "lesson_questions" USING btree ("lesson_id") WHERE "lesson_questions"."closed_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "lessons_live_course_key" ON "lessons" USING btree ("course_id") WHERE "lessons"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "lessons_course_started_idx" ON "lessons" USING btree ("course_id","started_at");--> statement-breakpoint
CREATE INDEX "lessons_assignment_idx" ON "lessons" USING btree ("assignment_id");