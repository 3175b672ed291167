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
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the blob after click returns.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** "CS101 gradebook.csv", keeping only characters every file system accepts. */
export const csvFileName = (code: string) => `${code.replace(/[^\w.-]+/g, '_')} gradebook.csv`;
