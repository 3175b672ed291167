// Bodies shaped like the app's, so baselines serialise and send as many bytes as the app does.
import { randomUUID } from 'node:crypto';

export function sampleAssignments(n) {
  const now = Date.now();
  return Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    title: `Assignment ${i + 1}: an essay on the water cycle`,
    description: 'Write about evaporation, condensation and precipitation, with one diagram.',
    dueDate: new Date(now + (i + 1) * 86_400_000).toISOString(),
    maxPoints: 100,
    courseId: randomUUID(),
    courseTitle: `Course ${i % 40}`,
    createdAt: new Date(now).toISOString(),
    submission: null,
    submissionCount: null,
  }));
}

const str = { type: 'string' };
const nullable = (schema) => ({ anyOf: [schema, { type: 'null' }] });
export const assignmentListSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      id: str,
      title: str,
      description: str,
      dueDate: str,
      maxPoints: { type: 'integer' },
      courseId: str,
      courseTitle: str,
      createdAt: str,
      submission: nullable({
        type: 'object',
        properties: {
          id: str,
          submittedAt: str,
          grade: nullable({ type: 'integer' }),
          feedback: nullable(str),
          gradedAt: nullable(str),
        },
      }),
      submissionCount: nullable({ type: 'integer' }),
    },
  },
};
