/** The `message` of our error body (DESIGN §7) in a raw answer's text, else `fallback`. */
export function apiErrorMessageOfBody(text: string, fallback: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body.message === 'string' && body.message.trim() !== '' ? body.message : fallback;
  } catch {
    return fallback;
  }
}
