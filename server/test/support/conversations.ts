import type { Comment, Post } from '@classwave/shared';
import type { TestApp } from './app.js';
import type { Actor } from './factories.js';

/** Test helpers of the conversations tests: a post, a comment, a private comment, each asserted made. */

export async function createPost(
  t: TestApp,
  teacher: Actor,
  courseId: string,
  body: Record<string, unknown> = {},
): Promise<Post> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/courses/${courseId}/posts`,
    headers: teacher.headers,
    payload: { text: 'Welcome to the course!', ...body },
  });
  if (res.statusCode !== 201) throw new Error(`createPost: ${res.statusCode} ${res.body}`);
  return res.json();
}

export async function commentOn(t: TestApp, who: Actor, postId: string, text = 'Thanks!'): Promise<Comment> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/posts/${postId}/comments`,
    headers: who.headers,
    payload: { text },
  });
  if (res.statusCode !== 201) throw new Error(`commentOn: ${res.statusCode} ${res.body}`);
  return res.json();
}

export async function writePrivately(
  t: TestApp,
  who: Actor,
  assignmentId: string,
  studentId: string,
  text: string,
): Promise<Comment> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/assignments/${assignmentId}/threads/${studentId}/comments`,
    headers: who.headers,
    payload: { text },
  });
  if (res.statusCode !== 201) throw new Error(`writePrivately: ${res.statusCode} ${res.body}`);
  return res.json();
}
