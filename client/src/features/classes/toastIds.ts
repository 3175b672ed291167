/** The toast of a removal from a course: one id, so the live event and its notification show one toast. */
export const removedToastId = (courseId: string) => `removed-${courseId}`;
