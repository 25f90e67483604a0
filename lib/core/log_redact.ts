/**
 * What log lines may say of a URL. A donor id is the key to the donor's data and cancel button, and
 * ids travel in paths (`/api/user/<id>`, `/payments/return/<id>`) and query strings
 * (`/{lang}/cancel-subscription?id=…`); a log is read by more people, and kept longer, than the
 * database. So every line ({@link jsonLine} in `log.ts` applies these to every field) writes:
 *
 * - a path (a field named `path`) with each id segment as `:id` and never a query string or
 *   fragment: `/api/user/:id`, `/en/cancel-subscription`;
 * - a URL inside any string (an error's message, its stack) as its origin (without credentials)
 *   and redacted path: `https://gateway.example/PaymentGW/GetTransaction`.
 *
 * An id segment is structural, so it holds for every route, a 404 probe, and routes added later:
 * 16 or more of `A-Z a-z 0-9 _ -` with at least one capital, digit or `_` (our ids are 24
 * random base64url characters; UUIDs, hex tokens and card-length numbers fall under it too, while
 * route words such as `get-all-success-transactions` are lower case), or 8 or more digits alone.
 * Language, shop and terminal segments are short and stay readable. `deploy/nginx.conf`'s access
 * log applies the same rule to nginx's own lines.
 *
 * Cheap by design (every request writes a line): a path is one regular expression pass, linear in
 * its length, and nothing is allocated when it has no id.
 *
 * @module
 */

/** An id segment (with its leading `/`); see the module comment for the rule. */
const ID_SEGMENTS = /\/(?:(?=[a-z-]*[A-Z0-9_])[A-Za-z0-9_-]{16,}|[0-9]{8,})(?=\/|$)/g;

/**
 * A path as logged: id segments as `:id`, no query string or fragment.
 *
 * @example
 * ```ts
 * redactPath("/api/user/q2V0bUoHx3f1k8Zr0aTQ9w_L"); // "/api/user/:id"
 * redactPath("/en/cancel-subscription?id=q2V0bUoHx3f1k8Zr0aTQ9w_L"); // "/en/cancel-subscription"
 * ```
 */
export function redactPath(path: string): string {
  let end = path.indexOf("?");
  const hash = path.indexOf("#");
  if (hash !== -1 && (end === -1 || hash < end)) end = hash;
  if (end !== -1) path = path.slice(0, end);
  // Too short to hold an id segment (`/` and 8 digits): most pages (`/en/`), without a regex pass.
  return path.length < 9 ? path : path.replace(ID_SEGMENTS, "/:id");
}

/** An absolute URL in free text: scheme and host, then its path, query and fragment if any. */
const URLS = /\b([a-z][a-z0-9+.-]{0,15}:\/\/[^\s/?#"'<>()]*)([^\s?#"'<>()]*)(?:[?#][^\s"'<>()]*)?/gi;

/**
 * Text with every absolute URL in it written as its origin and redacted path.
 *
 * @example
 * ```ts
 * redactUrls("error sending request for url (https://psp.example/return/q2V0bUoHx3f1k8Zr0aTQ9w_L?a=1)");
 * // "error sending request for url (https://psp.example/return/:id)"
 * ```
 */
export function redactUrls(text: string): string {
  return text.replace(
    URLS,
    (_all, origin: string, path: string) => withoutCredentials(origin) + redactPath(path),
  );
}

/**
 * An origin without credentials in its authority (`postgres://user:password@host`). By index, not
 * by a pattern: `//[^@]*@` is quadratic on a run of slashes.
 */
function withoutCredentials(origin: string): string {
  const at = origin.lastIndexOf("@");
  return at < 0 ? origin : origin.slice(0, origin.indexOf("//") + 2) + origin.slice(at + 1);
}
