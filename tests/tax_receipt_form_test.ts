/**
 * The donation form's tax-receipt part without JavaScript (issue 14): the box "I want an Israeli
 * tax receipt (Section 46)" and the Israeli ID number it asks for are in the server's page, a post
 * with a wrong ID number is shown in place in the donor's language with nothing created, a right one
 * is stored with the donor, an unticked box stores nothing, and a gift in dollars cannot have one.
 */
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";

function post(app: TestApp, path: string, fields: Record<string, string>) {
  return fetch(`${app.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

const DONOR = { firstName: "Dana", lastName: "Levi", email: "dana@example.org", country: "Israel" };
const NIS_GIFT = { period: "one-time", choice: "tier-2" };

/** The donor of the last payment the app started. */
async function lastDonor(app: TestApp) {
  const started = app.logs.filter((l) => l.msg === "payment started").at(-1);
  assert.ok(started, "a payment was started");
  const payment = await app.store.payments.get(String(started.paymentId));
  return await app.store.donors.get(payment!.donorId);
}

Deno.test("tax receipt form: the box and the ID field are on the page, translated, the field after the box", async () => {
  const app = await startTestApp();
  try {
    for (
      const [lang, box, label] of [
        ["en", "I want an Israeli tax receipt (Section 46)", "Israeli ID number (ת.ז.)"],
        ["he", "אני רוצה קבלה לצורכי מס בישראל (סעיף 46)", "מספר תעודת זהות (ת.ז.)"],
      ]
    ) {
      const html = await (await fetch(`${app.url}/${lang}/`)).text();
      const checkbox = html.indexOf('id="donor-taxReceipt" name="taxReceipt" type="checkbox" value="on"');
      const field = html.indexOf('id="donor-israeliId" name="israeliId"');
      assert.ok(checkbox > 0 && field > checkbox, `${lang}: the box, then the ID field`);
      assert.ok(html.includes(`<label for="donor-taxReceipt">${box}</label>`), `${lang}: the box's label`);
      assert.ok(html.includes(`<label for="donor-israeliId">${label}</label>`), `${lang}: the field's label`);
      assert.doesNotMatch(html, /id="donor-taxReceipt"[^>]*checked/, `${lang}: unticked at first`);
      assert.match(html, /name="israeliId" type="text"[^>]*inputmode="numeric"[^>]*dir="ltr"/);
    }
  } finally {
    await app.close();
  }
});

Deno.test("tax receipt form: a wrong or missing ID number is shown in place, in the donor's language; nothing is created", async () => {
  const app = await startTestApp();
  try {
    const cases: [string, string, RegExp][] = [
      ["he", "123456789", /<p class="field-error" id="donor-israeliId-error">מספר תעודת הזהות אינו תקין/],
      [
        "en",
        "123456789",
        /id="donor-israeliId-error">This Israeli ID number is not valid: please check its digits</,
      ],
      ["en", "", /id="donor-israeliId-error">Please enter your Israeli ID number for the tax receipt</],
      [
        "ru",
        "12345x",
        /id="donor-israeliId-error">Номер израильского удостоверения личности содержит не более 9 цифр</,
      ],
    ];
    for (const [lang, israeliId, error] of cases) {
      const res = await post(app, `/${lang}/`, { ...NIS_GIFT, ...DONOR, taxReceipt: "on", israeliId });
      assert.equal(res.status, 422, `${lang} ${israeliId}`);
      const html = await res.text();
      assert.match(html, error);
      assert.match(html, /aria-invalid="true"[^>]*aria-describedby="donor-israeliId-error"/);
      assert.match(html, /id="donor-taxReceipt"[^>]*checked/, "the box stays ticked");
      assert.ok(
        html.includes(`name="israeliId"`) && html.includes(`value="${israeliId}"`),
        "the input is kept",
      );
    }
    assert.ok(!app.logs.some((l) => l.msg === "donor created" || l.msg === "payment started"));
  } finally {
    await app.close();
  }
});

Deno.test("tax receipt form: a right ID number goes through and is stored with the donor, never logged", async () => {
  const app = await startTestApp();
  try {
    const res = await post(app, "/he/", { ...NIS_GIFT, ...DONOR, taxReceipt: "on", israeliId: "12345678-2" });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /<iframe src="[^"]*\/sandbox\/pay\//);
    assert.equal((await lastDonor(app))?.israeliId, "123456782");

    // Shorter numbers are left-padded; a gift in shekels typed as an other amount counts too.
    const other = { period: "one-time", choice: "other", otherAmount: "50", otherCurrency: "nis" };
    const padded = await post(app, "/en/", { ...other, ...DONOR, taxReceipt: "on", israeliId: "18" });
    assert.equal(padded.status, 200);
    await padded.body?.cancel();
    assert.equal((await lastDonor(app))?.israeliId, "000000018");

    for (const line of app.logs.map((l) => JSON.stringify(l))) {
      assert.ok(!line.includes("12345678"), `the ID number in the log: ${line}`);
    }
  } finally {
    await app.close();
  }
});

Deno.test("tax receipt form: an unticked box stores no ID number, whatever the field holds", async () => {
  const app = await startTestApp();
  try {
    const res = await post(app, "/en/", { ...NIS_GIFT, ...DONOR, israeliId: "not checked at all" });
    assert.equal(res.status, 200);
    await res.body?.cancel();
    assert.equal((await lastDonor(app))?.israeliId, null);
  } finally {
    await app.close();
  }
});

Deno.test("tax receipt form: a gift in dollars with the box ticked is refused in place (Israeli receipts are for shekels)", async () => {
  const app = await startTestApp();
  try {
    const dollars = { period: "one-time", choice: "other", otherAmount: "50", otherCurrency: "dollars" };
    const res = await post(app, "/es/", { ...dollars, ...DONOR, taxReceipt: "on", israeliId: "123456782" });
    assert.equal(res.status, 422);
    const html = await res.text();
    assert.match(
      html,
      /id="donor-taxReceipt-error">Los recibos fiscales israelíes se emiten para donaciones en séqueles/,
    );
    assert.match(
      html,
      /aria-describedby="donor-taxReceipt-hint donor-taxReceipt-error"[^>]*aria-invalid="true"/,
    );
    assert.ok(!app.logs.some((l) => l.msg === "payment started"));

    const unticked = await post(app, "/es/", { ...dollars, ...DONOR, israeliId: "123456782" });
    assert.equal(unticked.status, 200, "without the box a dollar gift goes through");
    await unticked.body?.cancel();
    assert.equal((await lastDonor(app))?.israeliId, null);
  } finally {
    await app.close();
  }
});
