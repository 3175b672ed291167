/** Business constants of the product spec (§9), in one place for both sides. */
export const TOAST_DURATION_MS = 4000;
export const SIDEBAR_WIDTH_EXPANDED = 280;
export const SIDEBAR_WIDTH_COLLAPSED = 80;
export const MORNING_ENDS_AT_HOUR = 12;
export const AFTERNOON_ENDS_AT_HOUR = 18;
export const TEAM_MEMBER_COUNT = 0;
export const DEFAULT_MAX_POINTS = 100;
export const SAMPLE_ASSIGNMENT_POINTS = [50, 100, 150] as const;
export const COURSES_QUERY_LIMIT = 1000;
export const UPCOMING_CLASSES_LIMIT = 5;
export const UPCOMING_EVENTS_LIMIT = 5;
export const COURSE_SKELETON_COUNT = 6;
export const CHATBOT_REPLY_DELAY_MS = { min: 1000, max: 2000 } as const;
export const UNKNOWN_COURSE_TITLE = 'Unknown Course';
