/**
 * Saving a file the back office fetched with the admin's token (a link cannot carry the token):
 * under the name the server gave it in `Content-Disposition`, or `fallback`.
 *
 * @module
 */

/** Saves `res`'s body as a download; answers the file's name. */
export async function saveDownload(res: Response, fallback: string): Promise<string> {
  const file = /filename="?([^";]+)"?/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? fallback;
  const href = URL.createObjectURL(await res.blob());
  const link = document.createElement("a");
  link.href = href;
  link.download = file;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
  return file;
}
