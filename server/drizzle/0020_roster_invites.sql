CREATE TABLE "roster_invites" (
	"course_id" uuid NOT NULL,
	"email" text NOT NULL,
	"full_name" text NOT NULL,
	"source_id" text,
	"invited_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "roster_invites_pkey" PRIMARY KEY("course_id","email")
);
--> statement-breakpoint
ALTER TABLE "roster_invites" ADD CONSTRAINT "roster_invites_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_invites" ADD CONSTRAINT "roster_invites_invited_by_profiles_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "roster_invites_source_idx" ON "roster_invites" USING btree ("course_id","source_id");