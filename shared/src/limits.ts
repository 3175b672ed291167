/** Limits that keep stored text reasonable; the client mirrors them with maxLength. */
export const LIMITS = {
  courseTitle: 200,
  courseCode: 20,
  courseDescription: 5000,
  assignmentTitle: 200,
  assignmentDescription: 10_000,
  maxPoints: 10_000,
  submissionContent: 50_000,
  feedback: 5000,
} as const;
