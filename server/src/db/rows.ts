/** `execute` answers rows as an array (PGlite) or in `rows` (node-postgres). */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}
