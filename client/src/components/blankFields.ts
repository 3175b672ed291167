/**
 * The required text fields that hold nothing but whitespace, each with its message. The browser's
 * `required` check passes "   " (it is not empty), and the server then refused it with a generic
 * failure; this names the field instead, as an empty one would be named.
 */
export function blankFieldErrors<K extends string>(
  values: Readonly<Record<K, string>>,
  messages: Readonly<Partial<Record<K, string>>>,
): Partial<Record<K, string>> {
  const errors: Partial<Record<K, string>> = {};
  for (const field of Object.keys(messages) as K[]) {
    if (values[field].trim() === '') errors[field] = messages[field];
  }
  return errors;
}

/** Focuses the control with the first of `ids` that has an error, in the form's order. */
export function focusFirstError(ids: readonly (string | undefined)[]): void {
  const first = ids.find((id) => id !== undefined);
  if (first) document.getElementById(first)?.focus();
}
