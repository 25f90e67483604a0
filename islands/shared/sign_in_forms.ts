/**
 * The sign-in and register forms' rules (spec section 5) and the messages their failed calls show
 * (spec section 8). Pure, shared by the form's island and its tests; answers locale keys, which the
 * page translates. A module of its own so the back office's sections do not ship it.
 *
 * @module
 */
import { isEmail } from "@/lib/shared/email.ts";
import { isFailedCall, type Message, serverWords } from "./account_forms.ts";

/** Spec section 9. */
export const PASSWORD_MIN_LENGTH = 6;
/** The API refuses longer passwords (`lib/staff/passwords.ts`); saying so here saves a round trip. */
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MIN_LENGTH = 2;
/** The API's limit on a name (`AdminRegisterSchema`). */
export const NAME_MAX_LENGTH = 100;

export interface LoginFields {
  email: string;
  password: string;
}

export interface RegisterFields extends LoginFields {
  name: string;
  confirm: string;
}

/** Field name → locale key of its problem; a field without a problem is absent. */
export type FieldProblems<F> = Partial<Record<keyof F, string>>;

// Code points, as the server counts them: an emoji is one character to the person typing it.
const length = (s: string) => [...s].length;
/**
 * A password's length as `lib/staff/passwords.ts` counts it: code points after NFKC normalization
 * (so "ﬁ" is two characters and "e" plus a combining accent is one). Counting the raw input
 * instead would refuse passwords the server takes, and let through ones it refuses as too short,
 * whose 400 would then be shown as 'too common'.
 */
const passwordLength = (s: string) => length(s.normalize("NFKC"));

function emailProblem(email: string): string | null {
  const v = email.trim();
  if (!v) return "login.emailRequired";
  return isEmail(v) ? null : "login.emailInvalid";
}

function passwordProblem(password: string): string | null {
  if (!password) return "login.passwordRequired";
  const n = passwordLength(password);
  if (n < PASSWORD_MIN_LENGTH) return "login.passwordMinLength";
  return n > PASSWORD_MAX_LENGTH ? "login.passwordMaxLength" : null;
}

function compact<F>(problems: Record<keyof F, string | null>): FieldProblems<F> {
  return Object.fromEntries(Object.entries(problems).filter(([, v]) => v !== null)) as FieldProblems<F>;
}

/**
 * The sign-in form's problems.
 *
 * @example
 * ```ts
 * loginProblems({ email: "dana@", password: "12345" });
 * // { email: "login.emailInvalid", password: "login.passwordMinLength" }
 * ```
 */
export function loginProblems(fields: LoginFields): FieldProblems<LoginFields> {
  return compact<LoginFields>({
    email: emailProblem(fields.email),
    password: passwordProblem(fields.password),
  });
}

/**
 * The register form's problems.
 *
 * @example
 * ```ts
 * registerProblems({ name: "D", email: "dana@museum.org", password: "secret1", confirm: "secret2" });
 * // { name: "register.nameMinLength", confirm: "register.passwordsDoNotMatch" }
 * ```
 */
export function registerProblems(fields: RegisterFields): FieldProblems<RegisterFields> {
  const name = fields.name.trim();
  return compact<RegisterFields>({
    name: !name ? "register.nameRequired" : length(name) < NAME_MIN_LENGTH
      ? "register.nameMinLength"
      // UTF-16 units, as the API's zod schema counts them.
      : name.length > NAME_MAX_LENGTH
      ? "register.nameMaxLength"
      : null,
    email: emailProblem(fields.email),
    password: passwordProblem(fields.password),
    confirm: !fields.confirm
      ? "register.confirmRequired"
      : fields.confirm !== fields.password
      ? "register.passwordsDoNotMatch"
      : null,
  });
}

/**
 * The message of a failed sign-in or registration: the section 8 catalogue, with the cases it
 * leaves to "the server's message" given translated texts of their own (a rejected account, a
 * taken email, closed registration, a password the server refuses, too many attempts, a busy
 * server that says when to try again).
 *
 * @example
 * ```ts
 * authFailure({ kind: "http", status: 401, body: null, retryAfter: null }, "login");
 * // { key: "apiErrors.invalidCredentials", hint: "login.invalidEmailOrPassword" }
 * ```
 */
export function authFailure(error: unknown, form: "login" | "register"): Message {
  if (!isFailedCall(error)) return { key: "apiErrors.unexpected" };
  if (error.kind === "network") return { key: "apiErrors.network" };
  if (error.kind === "format") return { key: "apiErrors.invalidResponse" };
  const status = error.status ?? 0;
  // Busy (the password queue is full, or storage is restarting): it says when to try again.
  if (status === 503 && error.retryAfter !== null) {
    return { key: "auth.busy", params: { seconds: Math.ceil(error.retryAfter) } };
  }
  if (status >= 500) return { key: "apiErrors.server" };
  if (status === 401) {
    return form === "login"
      ? { key: "apiErrors.invalidCredentials", hint: "login.invalidEmailOrPassword" }
      : { key: "apiErrors.invalidCredentials" };
  }
  if (status === 400) {
    const password = error.body?.errors?.some((e) => e.path === "password");
    return form === "register" && password
      ? { key: "register.passwordRejected" }
      : { key: "apiErrors.invalidData", hint: "apiErrors.checkInput" };
  }
  if (status === 429) {
    return {
      // Registration's limit counts registrations from a network, not failed attempts.
      key: form === "register" ? "auth.tooManyRegistrations" : "apiErrors.tooManyAttempts",
      params: { minutes: Math.ceil((error.retryAfter ?? 900) / 60) },
    };
  }
  if (status === 403) return { key: form === "login" ? "login.notApproved" : "register.closed" };
  if (status === 409 && form === "register") return { key: "register.emailTaken" };
  return serverWords(error);
}
