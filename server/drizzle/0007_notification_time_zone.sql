ALTER TABLE "notification_settings" ADD COLUMN "time_zone_chosen" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- A zone saved before this column existed came from the Settings form: keep it as the user's
-- choice, so the zone their browser reports from now on does not replace it. UTC was the default.
UPDATE "notification_settings" SET "time_zone_chosen" = true WHERE "time_zone" <> 'UTC';
