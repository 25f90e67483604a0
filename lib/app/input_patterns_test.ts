/**
 * Regular-expression denial of service: every regular expression in `lib/`, `routes/`, `islands/`
 * and `components/` is listed here, and each one the server or an island runs on what a client sends
 * (body, query, path, headers, or text a donor typed and we stored) is run against adversarial
 * strings at the body limit ({@link BODY_LIMIT}) and must answer within {@link LIMIT_MS}, or on a
 * busy machine within a multiple of a linear pass over the same string timed in the same
 * moment (`tests/helpers/time_budget.ts`). The email pattern took seconds on `a@` + dots + `@`, blocking the one
 * event loop for everyone.
 *
 * The patterns are read from the source files themselves (every `/…/flags` literal), so what is
 * timed is the code's own pattern, not a copy, and a pattern added or changed anywhere fails the
 * first test until it is audited here.
 *
 * @module
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import { BODY_LIMIT, detectLanguage } from "./app.ts";
import { LANG_COOKIE } from "@/lib/shared/languages.ts";
import { apiSchemas as schemas } from "@/tests/helpers/api_schemas.ts";
import { fieldError, formErrors, isEmail, selectionFromForm } from "@/lib/shared/donation.ts";
import { parseIsraeliId, taxReceiptErrors, taxReceiptFromForm } from "@/lib/shared/israeli_id.ts";
import { unsupportedLangRedirect } from "@/lib/shared/languages.ts";
import { TIERS } from "@/lib/shared/money.ts";
import { memberNumberOf } from "@/lib/memberships/mod.ts";
import { readView } from "@/lib/shared/transaction_filters.ts";
import { cardProblems } from "@/lib/providers/sandbox/cards.ts";
import { adversarialStrings } from "@/tests/helpers/adversarial.ts";
import { NOT_INPUT } from "@/tests/helpers/input_patterns_not_input.ts";
import { ON_INPUT } from "@/tests/helpers/input_patterns_on_input.ts";
import { LIMIT_MS, overBudget } from "@/tests/helpers/time_budget.ts";

// A regular-expression literal: after a character that cannot end an expression (so `a / b` is
// division), `/`, not `//` or `/*`, then escapes, classes (which may hold `/`) and other characters.
const LITERAL =
  /(?:[(=,!?:&|[{;]|\breturn\s|^)\s*(\/(?![/*])(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n[])+\/[dgimsuyv]*)/g;
const COMMENT_LINE = /^\s*(?:\*|\/\/|\/\*)/;

async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) yield path;
  }
}

/** Every `file → literal` in the code (`new RegExp` counted as one), deduplicated. */
async function patternsInCode(): Promise<Set<string>> {
  const found = new Set<string>();
  const root = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
  for (const folder of ["lib", "routes", "islands", "components"]) {
    for await (const path of sourceFiles(`${root}/${folder}`)) {
      const file = path.slice(root.length + 1);
      const text = await Deno.readTextFile(path);
      const code = text.split("\n").filter((line) => !COMMENT_LINE.test(line)).join("\n");
      for (const m of code.matchAll(LITERAL)) found.add(`${file} ${m[1]}`);
      if (code.includes("new RegExp(")) found.add(`${file} new RegExp`);
    }
  }
  return found;
}

const listed = (table: Record<string, { patterns: string[] }>) =>
  Object.entries(table).flatMap(([file, { patterns }]) => patterns.map((p) => `${file} ${p}`));

function compile(literal: string): RegExp {
  const end = literal.lastIndexOf("/");
  return new RegExp(literal.slice(1, end), literal.slice(end + 1));
}

/** The strings `run` took longer than its budget on, described (none for a pattern that is linear). */
async function slowOn(strings: string[], run: (s: string) => unknown): Promise<string[]> {
  const slow: string[] = [];
  for (const s of strings) {
    const over = await overBudget(s, run);
    if (over) slow.push(`${over.ms.toFixed(0)} ms (budget ${over.budget.toFixed(0)}) on ${describe(s)}`);
  }
  return slow;
}

const describe = (s: string) => `${JSON.stringify(s.slice(0, 12))}… (${s.length} chars)`;

Deno.test("input patterns: every regular expression in the code is audited here, and no stale entry", async () => {
  const inCode = await patternsInCode();
  const audited = new Set([...listed(ON_INPUT), ...listed(NOT_INPUT)]);
  const unaudited = [...inCode].filter((p) => !audited.has(p));
  const stale = [...audited].filter((p) => !inCode.has(p));
  assert.deepEqual(unaudited, [], "new or changed patterns: add each to ON_INPUT (timed) or NOT_INPUT (why)");
  assert.deepEqual(stale, [], "patterns no longer in the code");
});

Deno.test(`input patterns: each answers adversarial strings at the body limit within ${LIMIT_MS} ms`, async () => {
  const slow: string[] = [];
  for (const literal of new Set(Object.values(ON_INPUT).flatMap((e) => e.patterns))) {
    const re = compile(literal);
    const run = re.global || re.sticky ? (s: string) => s.replace(re, "") : (s: string) => re.test(s);
    const over = await slowOn(adversarialStrings(BODY_LIMIT, re.source), run);
    slow.push(...over.slice(0, 1).map((line) => `${literal}: ${line}`));
  }
  assert.deepEqual(slow, []);
});

/** Every string field of a schema, filled with `s` (nested objects and pipes included). */
function everyField(schema: z.ZodType, s: string): Record<string, unknown> {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.fromEntries(Object.keys(shape).map((key) => [key, s]));
}

Deno.test(`input validators: the schemas and form checks answer within ${LIMIT_MS} ms at the body limit`, async () => {
  const strings = adversarialStrings(BODY_LIMIT, schemas.EMAIL_PATTERN.source);
  const objects = Object.entries(schemas).filter(([, v]) => v instanceof z.ZodObject) as [
    string,
    z.ZodObject,
  ][];
  assert.ok(objects.length >= 10, "the schemas are found");
  const validators: [string, (s: string) => unknown][] = [
    ...objects.map(([name, schema]) =>
      [name, (s: string) => schema.safeParse(everyField(schema, s))] as [string, (s: string) => unknown]
    ),
    ["isEmail", isEmail],
    ["fieldError", (s) => fieldError("email", s)],
    ["formErrors", (s) => formErrors({ firstName: s, lastName: s, email: s, country: s })],
    ["selectionFromForm", (s) => selectionFromForm({ choice: s, otherAmount: s, period: s }, TIERS)],
    ["memberNumberOf", memberNumberOf],
    ["parseIsraeliId", parseIsraeliId],
    [
      "taxReceiptErrors",
      (s) => taxReceiptErrors(taxReceiptFromForm({ taxReceipt: "on", israeliId: s }), "nis"),
    ],
    ["unsupportedLangRedirect", (s) => unsupportedLangRedirect(`/${s}/x`, "")],
    ["readView", (s) => readView(new URLSearchParams({ page: s, search: s, type: s }))],
    ["cardProblems", (s) => cardProblems({ cardNumber: s, expiry: s, cvv: s, idNumber: s })],
  ];
  const slow: string[] = [];
  for (const [name, run] of validators) {
    slow.push(...(await slowOn(strings, run)).slice(0, 1).map((line) => `${name}: ${line}`));
  }
  assert.deepEqual(slow, []);
});

Deno.test("input validators: a failed length check ends the field's validation (one issue, no pattern run)", () => {
  const long = "a@" + ".".repeat(300) + "@";
  for (
    const schema of [
      schemas.CreateDonorSchema,
      schemas.AdminLoginSchema,
      schemas.AdminRegisterSchema,
    ]
  ) {
    const result = schema.safeParse({
      email: long,
      password: "x",
      firstName: "a",
      lastName: "b",
      country: "c",
    });
    assert.equal(result.success, false);
    const issues = result.error!.issues.filter((i) => i.path[0] === "email");
    assert.deepEqual(issues.map((i) => i.message), ["email must be at most 254 characters"]);
  }
  const name = schemas.CreateDonorSchema.safeParse({
    firstName: "\u0000".repeat(101),
    lastName: "b",
    email: "a@b.co",
    country: "c",
  });
  assert.deepEqual(name.error!.issues.map((i) => i.message), ["firstName must be at most 100 characters"]);
});

Deno.test(`input headers: language detection and the cookie parser answer within ${LIMIT_MS} ms`, async () => {
  // hono's parsers run on every page request's Cookie and Accept-Language (`lib/app/app.ts`,
  // `routes/[lang]/_middleware.ts`); only strings a header can carry are sent.
  const app = new Hono().get("/", (c) => c.text(`${detectLanguage(c)} ${getCookie(c, LANG_COOKIE)}`));
  const headerSafe = adversarialStrings(BODY_LIMIT, String.raw`^[\w!#$%&'*.^\`|~+-]+$;=,q`)
    .filter((s) => /^[\x20-\x7e\t]*$/.test(s));
  assert.ok(headerSafe.length > 20);
  const slow: string[] = [];
  for (const name of ["cookie", "accept-language"]) {
    const run = async (s: string) =>
      await (await app.request(`/?lng=${encodeURIComponent(s.slice(0, 2000))}`, { headers: { [name]: s } }))
        .text();
    slow.push(...(await slowOn(headerSafe, run)).map((line) => `${name}: ${line}`));
  }
  assert.deepEqual(slow, []);
});
