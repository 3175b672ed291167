import { saveFile } from '../../components/saveFile';

/**
 * Fetches the gradebook's CSV with the bearer token (a plain link would carry none) and saves it
 * as a file named after the course.
 */
export async function downloadGradebookCsv(
  courseId: string,
  token: string | null,
  fileName: string,
): Promise<void> {
  const response = await fetch(`/api/courses/${encodeURIComponent(courseId)}/gradebook.csv`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) throw new Error(`The gradebook could not be downloaded (${response.status}).`);
  saveFile(await response.blob(), fileName);
}

/** "CS101 gradebook.csv", keeping only characters every file system accepts. */
export const csvFileName = (code: string) => `${code.replace(/[^\w.-]+/g, '_')} gradebook.csv`;
