import { createContext, useContext } from 'react';

/**
 * Whether the course on the page is archived (DESIGN §20), for every part of the page that writes:
 * the server refuses each write with 409 course_archived, so the page offers none. A context, so
 * the stream's comment boxes deep down and the roster's buttons ask without a prop at every level.
 */
export const CourseReadOnlyContext = createContext(false);

/** True inside an archived course's page: hide every control that would change the course. */
export const useCourseReadOnly = () => useContext(CourseReadOnlyContext);
