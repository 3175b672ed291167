/** Saves a blob as a file named `fileName`, through a temporary link (the platform's download). */
export function saveFile(blob: Blob, fileName: string): void {
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
