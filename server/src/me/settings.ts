import { eq, sql } from 'drizzle-orm';
import { isTimeZone, type NotificationSettings } from '@classwave/shared';
import type { Caller } from '../auth/caller.js';
import type { Db } from '../db/client.js';
import { notificationSettings } from '../db/schema.js';
import { badRequest } from '../http/errors.js';
import { DEFAULT_SETTINGS, toSettings } from '../notifications/store.js';

/** The user's notification settings (DESIGN §14): quiet hours, e-mail, and the zone their texts use. */
export function createSettingsService({ db }: { db: Db }) {
  const settingsOf = async (userId: string) => {
    const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
    return toSettings(row);
  };

  return {
    async settings(caller: Caller): Promise<NotificationSettings> {
      return settingsOf(caller.userId);
    },

    /**
     * Settings saved by hand. Changing the zone from the one stored (the browser's, once it was
     * reported) makes it the user's choice, which a browser's report no longer replaces.
     */
    async updateSettings(caller: Caller, body: NotificationSettings): Promise<NotificationSettings> {
      const { quietHours, email } = body;
      if (!isTimeZone(quietHours.timeZone))
        throw badRequest('body.quietHours.timeZone must be an IANA time zone such as Europe/Paris');
      const values = {
        quietEnabled: quietHours.enabled,
        quietStart: quietHours.start,
        quietEnd: quietHours.end,
        timeZone: quietHours.timeZone,
        email,
      };
      const [row] = await db
        .insert(notificationSettings)
        .values({
          userId: caller.userId,
          ...values,
          timeZoneChosen: quietHours.timeZone !== DEFAULT_SETTINGS.quietHours.timeZone,
        })
        .onConflictDoUpdate({
          target: notificationSettings.userId,
          set: {
            ...values,
            timeZoneChosen: sql`${notificationSettings.timeZoneChosen} or ${notificationSettings.timeZone} <> excluded.time_zone`,
          },
        })
        .returning();
      return toSettings(row);
    },

    /** The zone the user's browser reports, stored unless they chose one by hand (DetectedTimeZoneBody). */
    async recordTimeZone(caller: Caller, timeZone: string): Promise<NotificationSettings> {
      if (!isTimeZone(timeZone))
        throw badRequest('body.timeZone must be an IANA time zone such as Europe/Paris');
      const [row] = await db
        .insert(notificationSettings)
        .values({ userId: caller.userId, timeZone })
        .onConflictDoUpdate({
          target: notificationSettings.userId,
          set: { timeZone },
          setWhere: sql`not ${notificationSettings.timeZoneChosen}`,
        })
        .returning();
      // A chosen zone left the row as it was (nothing returned): answer it as it stands.
      return row ? toSettings(row) : settingsOf(caller.userId);
    },
  };
}
export type SettingsService = ReturnType<typeof createSettingsService>;
