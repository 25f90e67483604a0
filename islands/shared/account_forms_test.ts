import assert from "node:assert/strict";
import en from "@/locales/en.json" with { type: "json" };
import { passwordProblem as serverPasswordProblem } from "@/lib/staff/passwords.ts";
import { type FailedCall, listFailure } from "./account_forms.ts";
import {
  authFailure,
  loginProblems,
  NAME_MIN_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  registerProblems,
} from "./sign_in_forms.ts";
import { overBudget } from "@/tests/helpers/time_budget.ts";

const GOOD = { email: "dana@museum.org", password: "violet-harbor" };
const GOOD_REGISTER = { ...GOOD, name: "Dana Levi", confirm: GOOD.password };

const http = (
  status: number,
  body: FailedCall["body"] = null,
  retryAfter: number | null = null,
): FailedCall => ({
  kind: "http",
  status,
  body,
  retryAfter,
});
const network: FailedCall = { kind: "network", status: null, body: null, retryAfter: null };
const format: FailedCall = { kind: "format", status: null, body: null, retryAfter: null };

/** The English text of a dotted locale key; fails when the key is missing. */
function english(key: string): string {
  const value = key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], en);
  assert.equal(typeof value, "string", `locales/en.json has ${key}`);
  return value as string;
}

Deno.test("the limits are the spec's (section 9) and the server's", () => {
  assert.equal(PASSWORD_MIN_LENGTH, 6);
  assert.equal(NAME_MIN_LENGTH, 2);
  assert.equal(PASSWORD_MAX_LENGTH, 128);
});

Deno.test("loginProblems: a good form has none", () => {
  assert.deepEqual(loginProblems(GOOD), {});
  assert.deepEqual(loginProblems({ email: "  dana@museum.org  ", password: "123456" }), {});
});

Deno.test("loginProblems: email required, also when only whitespace", () => {
  for (const email of ["", " ", "\t \n"]) {
    assert.deepEqual(
      loginProblems({ ...GOOD, email }),
      { email: "login.emailRequired" },
      JSON.stringify(email),
    );
  }
});

Deno.test("loginProblems: email shapes the simple pattern refuses", () => {
  for (
    const email of [
      "dana",
      "dana@",
      "@museum.org",
      "dana@museum",
      "dana@museum.",
      "dana@.org",
      "dana museum.org",
      "da na@museum.org",
      "dana@mu seum.org",
      "dana@@museum.org",
      "dana@museum@org.com",
    ]
  ) {
    assert.deepEqual(loginProblems({ ...GOOD, email }), { email: "login.emailInvalid" }, email);
  }
  for (const email of ["d@m.co", "dana.levi+gifts@mail.museum.org", "DANA@MUSEUM.ORG"]) {
    assert.deepEqual(loginProblems({ ...GOOD, email }), {}, email);
  }
});

Deno.test("loginProblems: an email over 254 characters is refused without running the pattern", async () => {
  const at = (n: number) => "a".repeat(n - "@museum.org".length) + "@museum.org";
  assert.deepEqual(loginProblems({ ...GOOD, email: at(254) }), {});
  assert.deepEqual(loginProblems({ ...GOOD, email: at(255) }), { email: "login.emailInvalid" });
  // The old pattern's quadratic case, pasted into the form: answered at once.
  const quadratic = "a@" + ".".repeat(65_536) + "@";
  assert.deepEqual(loginProblems({ ...GOOD, email: quadratic }), { email: "login.emailInvalid" });
  assert.equal(await overBudget(quadratic, (email) => loginProblems({ ...GOOD, email })), null);
});

Deno.test("loginProblems: password required, at least 6, at most 128 code points", () => {
  assert.deepEqual(loginProblems({ ...GOOD, password: "" }), { password: "login.passwordRequired" });
  assert.deepEqual(loginProblems({ ...GOOD, password: "12345" }), { password: "login.passwordMinLength" });
  assert.deepEqual(loginProblems({ ...GOOD, password: "123456" }), {});
  // Not trimmed: six spaces are six characters, as the server counts them.
  assert.deepEqual(loginProblems({ ...GOOD, password: "      " }), {});
  assert.deepEqual(loginProblems({ ...GOOD, password: "a".repeat(128) }), {});
  assert.deepEqual(loginProblems({ ...GOOD, password: "a".repeat(129) }), {
    password: "login.passwordMaxLength",
  });
});

Deno.test("loginProblems: an emoji is one character, not two UTF-16 units", () => {
  const smile = "\u{1F600}";
  assert.equal(smile.repeat(5).length, 10, "five emoji are ten UTF-16 units");
  assert.deepEqual(loginProblems({ ...GOOD, password: smile.repeat(5) }), {
    password: "login.passwordMinLength",
  });
  assert.deepEqual(loginProblems({ ...GOOD, password: smile.repeat(6) }), {});
  // 65 emoji are 130 UTF-16 units but 65 characters.
  assert.deepEqual(loginProblems({ ...GOOD, password: smile.repeat(65) }), {});
  assert.deepEqual(loginProblems({ ...GOOD, password: smile.repeat(128) }), {});
  assert.deepEqual(loginProblems({ ...GOOD, password: smile.repeat(129) }), {
    password: "login.passwordMaxLength",
  });
});

Deno.test("password length agrees with the server's count after normalization", () => {
  const cases = [
    "\uFB01\uFB01\uFB01", // three "ﬁ" ligatures: six characters once normalized
    "e\u0301".repeat(3), // six code points typed, three accented letters
    "e\u0301".repeat(6),
    "\uFB01".repeat(64),
    "\uFB01".repeat(65), // 65 typed, 130 normalized
    "a".repeat(127) + "\uFB01", // 128 typed, 129 normalized
  ];
  for (const password of cases) {
    const server = serverPasswordProblem(password);
    const client = loginProblems({ ...GOOD, password }).password;
    const serverLength = server === null
      ? null
      : /at least/.test(server)
      ? "min"
      : /at most/.test(server)
      ? "max"
      : "other";
    const clientLength = client === undefined
      ? null
      : client === "login.passwordMinLength"
      ? "min"
      : client === "login.passwordMaxLength"
      ? "max"
      : "other";
    assert.equal(clientLength, serverLength, `${JSON.stringify(password)}: server says ${server}`);
  }
});

Deno.test("loginProblems: both fields at once", () => {
  assert.deepEqual(loginProblems({ email: "dana@", password: "12345" }), {
    email: "login.emailInvalid",
    password: "login.passwordMinLength",
  });
  assert.deepEqual(loginProblems({ email: "", password: "" }), {
    email: "login.emailRequired",
    password: "login.passwordRequired",
  });
});

Deno.test("registerProblems: a good form has none; the name is trimmed", () => {
  assert.deepEqual(registerProblems(GOOD_REGISTER), {});
  assert.deepEqual(registerProblems({ ...GOOD_REGISTER, name: "  Al  " }), {});
});

Deno.test("registerProblems: name required, at least 2 characters after trimming", () => {
  for (const name of ["", "   "]) {
    assert.deepEqual(registerProblems({ ...GOOD_REGISTER, name }), { name: "register.nameRequired" }, name);
  }
  for (const name of ["A", " A ", "\u{1F600}"]) {
    assert.deepEqual(registerProblems({ ...GOOD_REGISTER, name }), { name: "register.nameMinLength" }, name);
  }
  for (const name of ["Al", "\u{1F600}\u{1F600}", "דן", "a".repeat(100)]) {
    assert.deepEqual(registerProblems({ ...GOOD_REGISTER, name }), {}, name);
  }
  // At most 100, counted as the API's schema counts (UTF-16 units), so the server never refuses it.
  for (const name of ["a".repeat(101), "\u{1F600}".repeat(51)]) {
    assert.deepEqual(registerProblems({ ...GOOD_REGISTER, name }), { name: "register.nameMaxLength" });
  }
});

Deno.test("registerProblems: email and password follow the sign-in rules", () => {
  assert.deepEqual(registerProblems({ ...GOOD_REGISTER, email: " " }), { email: "login.emailRequired" });
  assert.deepEqual(registerProblems({ ...GOOD_REGISTER, email: "dana@museum" }), {
    email: "login.emailInvalid",
  });
  assert.deepEqual(registerProblems({ ...GOOD_REGISTER, password: "", confirm: "" }), {
    password: "login.passwordRequired",
    confirm: "register.confirmRequired",
  });
  assert.deepEqual(registerProblems({ ...GOOD_REGISTER, password: "12345", confirm: "12345" }), {
    password: "login.passwordMinLength",
  });
  assert.deepEqual(registerProblems({ ...GOOD_REGISTER, password: "123456", confirm: "123456" }), {});
  const long = "x".repeat(129);
  assert.deepEqual(registerProblems({ ...GOOD_REGISTER, password: long, confirm: long }), {
    password: "login.passwordMaxLength",
  });
});

Deno.test("registerProblems: the confirmation is required and must equal the password", () => {
  assert.deepEqual(registerProblems({ ...GOOD_REGISTER, confirm: "" }), {
    confirm: "register.confirmRequired",
  });
  assert.deepEqual(registerProblems({ ...GOOD_REGISTER, confirm: "violet-harbour" }), {
    confirm: "register.passwordsDoNotMatch",
  });
  // Not trimmed, not case-folded.
  assert.deepEqual(registerProblems({ ...GOOD_REGISTER, confirm: `${GOOD.password} ` }), {
    confirm: "register.passwordsDoNotMatch",
  });
  assert.deepEqual(registerProblems({ ...GOOD_REGISTER, confirm: GOOD.password.toUpperCase() }), {
    confirm: "register.passwordsDoNotMatch",
  });
});

Deno.test("registerProblems: every field at once", () => {
  assert.deepEqual(registerProblems({ name: "D", email: "dana@", password: "12345", confirm: "54321" }), {
    name: "register.nameMinLength",
    email: "login.emailInvalid",
    password: "login.passwordMinLength",
    confirm: "register.passwordsDoNotMatch",
  });
});

Deno.test("every rule's key has the spec's English text", () => {
  assert.equal(english("login.emailRequired"), "Email is required");
  assert.equal(english("login.emailInvalid"), "Please enter a valid email address");
  assert.equal(english("login.passwordRequired"), "Password is required");
  assert.equal(english("login.passwordMinLength"), "Password must be at least 6 characters");
  assert.equal(english("register.nameRequired"), "Full name is required");
  assert.equal(english("register.nameMinLength"), "Name must be at least 2 characters");
  assert.equal(english("register.confirmRequired"), "Please confirm your password");
  assert.equal(english("register.passwordsDoNotMatch"), "Passwords do not match");
  assert.ok(english("login.passwordMaxLength").includes("128"));
});

Deno.test("authFailure: network and format, for both forms", () => {
  for (const form of ["login", "register"] as const) {
    assert.deepEqual(authFailure(network, form), { key: "apiErrors.network" });
    assert.deepEqual(authFailure(format, form), { key: "apiErrors.invalidResponse" });
    // Something that is not a failed call at all.
    assert.deepEqual(authFailure(new TypeError("boom"), form), { key: "apiErrors.unexpected" });
    assert.deepEqual(authFailure(null, form), { key: "apiErrors.unexpected" });
  }
});

Deno.test("authFailure: 400 is 'Invalid data provided', or the refused password on register", () => {
  const invalid = { key: "apiErrors.invalidData", hint: "apiErrors.checkInput" };
  assert.deepEqual(authFailure(http(400), "login"), invalid);
  assert.deepEqual(
    authFailure(http(400, { message: "email is not a valid email address" }), "register"),
    invalid,
  );
  const passwordRefused = http(400, {
    message: "This password is one of the 1,000 most common passwords",
    errors: [{ path: "password", message: "This password is one of the 1,000 most common passwords" }],
  });
  assert.deepEqual(authFailure(passwordRefused, "register"), { key: "register.passwordRejected" });
  // At sign-in the same body is just invalid data.
  assert.deepEqual(authFailure(passwordRefused, "login"), invalid);
  // Another field's error is not the password's.
  assert.deepEqual(
    authFailure(
      http(400, { errors: [{ path: "name", message: "name must be at least 2 characters" }] }),
      "register",
    ),
    invalid,
  );
});

Deno.test("authFailure: 401 is 'Invalid credentials', with the email-or-password hint at sign-in only", () => {
  assert.deepEqual(authFailure(http(401, { message: "Invalid credentials" }), "login"), {
    key: "apiErrors.invalidCredentials",
    hint: "login.invalidEmailOrPassword",
  });
  assert.deepEqual(authFailure(http(401), "register"), { key: "apiErrors.invalidCredentials" });
  assert.equal(english("apiErrors.invalidCredentials"), "Invalid credentials");
  assert.equal(english("login.invalidEmailOrPassword"), "Invalid email or password");
});

Deno.test("authFailure: 403 is a refused account at sign-in, closed registration on register", () => {
  assert.deepEqual(authFailure(http(403), "login"), { key: "login.notApproved" });
  assert.deepEqual(authFailure(http(403), "register"), { key: "register.closed" });
});

Deno.test("authFailure: 409 on register is the taken email; at sign-in the server's words", () => {
  assert.deepEqual(
    authFailure(http(409, { message: "An account with this email already exists" }), "register"),
    {
      key: "register.emailTaken",
    },
  );
  assert.deepEqual(authFailure(http(409, { message: "Conflict here" }), "login"), { text: "Conflict here" });
  assert.deepEqual(authFailure(http(409), "login"), { key: "apiErrors.unexpected" });
});

Deno.test("authFailure: 429 says how many minutes to wait, rounded up; 15 without Retry-After", () => {
  const minutes = (retryAfter: number | null) =>
    authFailure(http(429, null, retryAfter), "login").params?.minutes;
  assert.equal(authFailure(http(429, null, 60), "login").key, "apiErrors.tooManyAttempts");
  assert.equal(minutes(1), 1);
  assert.equal(minutes(60), 1);
  assert.equal(minutes(61), 2);
  assert.equal(minutes(899), 15);
  assert.equal(minutes(900), 15);
  assert.equal(minutes(null), 15);
  // Registration's 429 is its rate limit (registrations from one network), not failed attempts.
  assert.deepEqual(authFailure(http(429, null, 120), "register"), {
    key: "auth.tooManyRegistrations",
    params: { minutes: 2 },
  });
  assert.match(english("apiErrors.tooManyAttempts"), /\{\{minutes\}\}/);
  assert.match(english("auth.tooManyRegistrations"), /\{\{minutes\}\}/);
});

Deno.test("authFailure: a busy 503 with Retry-After says how many seconds to wait, in every form", () => {
  for (const form of ["login", "register"] as const) {
    assert.deepEqual(authFailure(http(503, { message: "busy" }, 3), form), {
      key: "auth.busy",
      params: { seconds: 3 },
    });
  }
  assert.match(english("auth.busy"), /\{\{seconds\}\}/);
  // Without Retry-After it is the plain server error (next test).
  assert.deepEqual(authFailure(http(503), "login"), { key: "apiErrors.server" });
});

Deno.test("authFailure: 500 and above is the server error, whatever the body says", () => {
  for (const status of [500, 502, 503, 504, 599]) {
    for (const form of ["login", "register"] as const) {
      assert.deepEqual(authFailure(http(status, { message: "database down" }), form), {
        key: "apiErrors.server",
      });
    }
  }
  assert.equal(english("apiErrors.server"), "Server error. Please try again later");
});

Deno.test("authFailure: another status shows the server's message, else 'An unexpected error occurred'", () => {
  assert.deepEqual(authFailure(http(418, { message: "I'm a teapot" }), "login"), { text: "I'm a teapot" });
  assert.deepEqual(authFailure(http(404, { message: "Not here" }), "register"), { text: "Not here" });
  assert.deepEqual(authFailure(http(418), "login"), { key: "apiErrors.unexpected" });
  assert.deepEqual(authFailure(http(418, { message: "   " }), "login"), { key: "apiErrors.unexpected" });
  // deno-lint-ignore no-explicit-any
  assert.deepEqual(authFailure(http(418, { message: 42 as any }), "login"), { key: "apiErrors.unexpected" });
  assert.deepEqual(authFailure({ kind: "http", status: null, body: null, retryAfter: null }, "login"), {
    key: "apiErrors.unexpected",
  });
  assert.equal(english("apiErrors.unexpected"), "An unexpected error occurred");
});

Deno.test("listFailure: the transaction list's catalogue", () => {
  assert.deepEqual(listFailure(http(401, { message: "The access token has expired" })), {
    key: "apiErrors.unauthorized",
  });
  assert.deepEqual(listFailure(http(403, { message: "pending" })), { key: "apiErrors.forbidden" });
  for (const status of [500, 503]) {
    assert.deepEqual(listFailure(http(status, { message: "x" })), { key: "apiErrors.server" });
  }
  assert.deepEqual(listFailure(network), { key: "apiErrors.network" });
  assert.deepEqual(listFailure(format), { key: "apiErrors.invalidResponse" });
  assert.deepEqual(listFailure(http(400, { message: "page must be at least 1" })), {
    text: "page must be at least 1",
  });
  assert.deepEqual(listFailure(http(404)), { key: "apiErrors.unexpected" });
  // 429 has no entry of its own in the list's catalogue: the server's words.
  assert.deepEqual(listFailure(http(429, { message: "Slow down" }, 30)), { text: "Slow down" });
  assert.deepEqual(listFailure(new Error("x")), { key: "apiErrors.unexpected" });
  assert.equal(english("apiErrors.unauthorized"), "Unauthorized access");
  assert.equal(english("apiErrors.forbidden"), "Access forbidden");
  assert.equal(english("apiErrors.network"), "Network error. Please check your connection");
  assert.equal(english("apiErrors.invalidResponse"), "Invalid response format");
  assert.equal(english("apiErrors.invalidData"), "Invalid data provided");
  assert.equal(english("apiErrors.checkInput"), "Please check your input data");
});

Deno.test("an ApiError-shaped object is read by its fields, not its class", () => {
  class Failure extends Error {
    kind = "http" as const;
    status = 401;
    body = null;
    retryAfter = null;
  }
  assert.deepEqual(authFailure(new Failure(), "register"), { key: "apiErrors.invalidCredentials" });
});
