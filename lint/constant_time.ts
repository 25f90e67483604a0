/**
 * A `deno lint` plugin, run by `deno task check` (deno.json's `lint.plugins`): secrets are compared
 * in constant time.
 *
 * | rule                        | what it refuses                                                        |
 * |-----------------------------|------------------------------------------------------------------------|
 * | `constant-time/mac-equality` | `===`, `!==`, `==` or `!=` between two values when one names a MAC |
 *
 * `===` on strings stops at the first character that differs, so the time it takes tells a caller
 * how much of a forged MAC is right, and it can be found a character at a time. A MAC (or a token
 * that carries one) is compared with `equalSecrets` or `timingSafeEqual` (`lib/core/constant_time.ts`),
 * or checked with `crypto.subtle.verify`.
 *
 * What names a MAC, in the app's code (`lib/`, `routes/`, `islands/`, `components/`; tests may
 * compare freely): an identifier one of whose camelCase words is `mac`, `hmac`, `signature`, `sig`
 * or `digest`, or a call of a function one of whose words is `sign` (`signInToken(…)` makes a
 * signed token). A comparison with a literal, a `typeof`, or a length is no comparison of secrets.
 *
 * @example
 * ```ts
 * const found = Deno.lint.runPlugin(plugin, `${ROOT}lib/x.ts`, source);
 * ```
 *
 * @module
 */

/** The project root, with a trailing slash. */
export const ROOT = new URL("../", import.meta.url).pathname;

/** The app's folders: what runs with real secrets. */
const APP_FOLDERS = ["lib/", "routes/", "islands/", "components/"];
/** Words of an identifier that name a MAC or a signature. */
const MAC_WORDS = new Set(["mac", "hmac", "signature", "sig", "digest"]);
/** Members whose comparison says nothing of a secret's content. */
const HARMLESS_MEMBERS = new Set(["length", "size", "byteLength"]);

const relative = (filename: string) => filename.startsWith(ROOT) ? filename.slice(ROOT.length) : filename;

/** The camelCase (or snake_case) words of an identifier, lower-cased: `signInToken` → sign, in, token. */
const words = (name: string) =>
  name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_$]+/g, " ").toLowerCase().split(" ");

/** Whether the operand cannot carry a secret: a literal, a `typeof`, a template without holes, a length. */
function harmless(node: Deno.lint.Node): boolean {
  if (node.type === "Literal" || node.type === "UnaryExpression") return true;
  if (node.type === "Identifier") return node.name === "undefined";
  if (node.type === "TemplateLiteral") return node.expressions.length === 0;
  return node.type === "MemberExpression" && node.property.type === "Identifier" &&
    HARMLESS_MEMBERS.has(node.property.name);
}

/** Whether the source of a comparison names a MAC: an identifier's word, or a signing call. */
function namesMac(source: string): boolean {
  // String contents are data, not names.
  const code = source.replace(/(["'`])(?:\\.|(?!\1)[^\\])*\1/g, "''");
  for (const [, name, call] of code.matchAll(/([A-Za-z_$][\w$]*)(\s*\()?/g)) {
    const parts = words(name);
    if (parts.some((w) => MAC_WORDS.has(w))) return true;
    if (call && parts.includes("sign")) return true;
  }
  return false;
}

const plugin: Deno.lint.Plugin = {
  name: "constant-time",
  rules: {
    "mac-equality": {
      create(context) {
        const path = relative(context.filename);
        if (!APP_FOLDERS.some((f) => path.startsWith(f)) || /_test\.tsx?$/.test(path)) return {};
        return {
          BinaryExpression(node) {
            if (!["===", "!==", "==", "!="].includes(node.operator)) return;
            if (harmless(node.left) || harmless(node.right)) return;
            const source = context.sourceCode.text.slice(node.range[0], node.range[1]);
            if (!namesMac(source)) return;
            context.report({
              node,
              message: `a MAC compared with ${node.operator}: its time tells how much of a forgery is right`,
              hint:
                "Compare with equalSecrets (lib/core/constant_time.ts), or check it with crypto.subtle.verify.",
            });
          },
        };
      },
    },
  },
};

export default plugin;
