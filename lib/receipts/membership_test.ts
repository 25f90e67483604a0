/**
 * Receipts of gifts at a membership level, on both backends: the receipt keeps the level as it was
 * when issued (its names, the value of its benefits, its donation share) and what it states as
 * given: a US receipt the deductible amount (the payment less the benefits' value, never below
 * zero), an Israeli receipt the level's donation share; a monthly charge its month's share of the
 * value; a plain gift nothing; and a later edit of the level changes no issued receipt.
 */
import assert from "node:assert/strict";
import { levelGiftChange } from "@/lib/memberships/mod.ts";
import { changeMuseumSettings, readMuseumSettings } from "@/lib/museum/mod.ts";
import { MuseumSettingsChangeSchema } from "@/lib/museum/schemas.ts";
import type { Admin, Store, Transaction } from "@/lib/storage/types.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import type { ReceiptSettings } from "./config.ts";
import { issueReceipt } from "./issue.ts";
import { receiptAttachmentFor } from "./attachment.ts";
import { translator } from "@/lib/core/i18n.ts";
import { createRenderer } from "@/lib/outbox/templates/mod.ts";
import { manageLinkKey } from "@/lib/donor_portal/manage_link.ts";
import { signInKey } from "@/lib/donor_portal/sign_in.ts";

const SECRET = "test-secret-that-is-long-enough-0123456789";

let n = 0;
/** A successful one-time gift, with `overrides`. */
const giftFixture = (overrides: Partial<Transaction>): Transaction => ({
  id: `tx_level_${++n}_${crypto.randomUUID().slice(0, 8)}`,
  kind: "success",
  statusCode: "000",
  isMonthly: false,
  createdAt: "2026-03-01T10:00:00.000Z",
  donorId: `donor_level_${n}`,
  user: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" },
  amount: 5_000,
  currency: 2,
  resultData: null,
  errorMessage: null,
  provider: "sandbox",
  providerTransactionId: `ptx_level_${n}_${crypto.randomUUID().slice(0, 8)}`,
  ...overrides,
});

const owner: Admin = {
  id: "adm_owner_0123456789abcdef",
  email: "owner@museum.org",
  name: "Owner",
  passwordHash: "x",
  status: "approved",
  role: "owner",
  createdAt: "2026-11-01T00:00:00.000Z",
  decidedBy: null,
  decidedAt: null,
};

const SETTINGS: ReceiptSettings = {
  museum: {
    legalName: "The Museum (R.A.)",
    address: "1 Museum Road, Jerusalem",
    nonprofitNumber: "580000000",
    section46Approval: "4567",
    section46ValidUntil: "2026-12-31",
  },
  friends: {
    legalName: "American Friends of the Museum",
    address: "1 Broadway, New York",
    ein: "12-3456789",
  },
};

/** Sets level 3 (Family: $50, ₪200) to benefits worth $40 / ₪160 and a 60% donation share. */
async function setLevel3(store: Store, value: { dollars: number; nis: number }, donationShare: number) {
  const now = await readMuseumSettings(store);
  const change = MuseumSettingsChangeSchema.parse({
    version: now.version,
    identity: now.identity,
    levels: now.levels,
  });
  change.levels[2] = { ...change.levels[2], benefitsValue: value, donationShare };
  await changeMuseumSettings(store, { admin: owner, address: "203.0.113.1" }, change, { maxAmount: 100_000 });
}

/** Records `tx` as a gift at `levelId` (the membership's term in the same step), as completion does. */
async function giveAtLevel(
  store: Store,
  tx: Transaction,
  levelId: number,
  subscriptionId: string | null = null,
) {
  const membership = await levelGiftChange({ store }, tx.user.email, {
    donorId: tx.donorId,
    levelId,
    paidAt: tx.createdAt,
    transactionId: tx.id,
    amount: tx.amount!,
    currency: tx.currency!,
    subscriptionId,
  });
  await store.transactions.record(tx, { membership });
}

const issue = (store: Store, tx: Transaction) =>
  issueReceipt(store, SETTINGS, { transaction: tx, donorName: "Ada Lovelace", donorTaxId: null });

backendTest(
  "receipts of gifts at a level: US deductible amount, Israeli donation share, kept as issued",
  async (_t, open) => {
    const store = await open();
    await setLevel3(store, { dollars: 4_000, nis: 16_000 }, 60);

    const us = giftFixture({
      amount: 5_000,
      currency: 2,
      user: { firstName: "Ada", lastName: "L", email: "ada@example.com" },
    });
    await giveAtLevel(store, us, 3);
    const usReceipt = await issue(store, us);
    assert.equal(usReceipt.currency, "USD");
    assert.equal(usReceipt.membership?.levelId, 3);
    assert.equal(usReceipt.membership?.levelName.en, "Family");
    assert.equal(usReceipt.membership?.benefitsValue, 4_000);
    assert.equal(usReceipt.membership?.donation, 1_000, "$50 less benefits worth $40");

    const il = giftFixture({
      amount: 20_000,
      currency: 1,
      user: { firstName: "Dana", lastName: "K", email: "dana@example.com" },
    });
    await giveAtLevel(store, il, 3);
    const ilReceipt = await issue(store, il);
    assert.equal(ilReceipt.membership?.donationShare, 60);
    assert.equal(ilReceipt.membership?.donation, 12_000, "60% of ₪200");

    // A monthly charge buys a month of the 12-month term: its share of the value, rounded up.
    const monthly = giftFixture({
      amount: 5_000,
      currency: 2,
      isMonthly: true,
      user: { firstName: "M", lastName: "M", email: "monthly@example.com" },
    });
    await giveAtLevel(store, monthly, 3, "sub_monthly_1");
    const monthlyReceipt = await issue(store, monthly);
    assert.equal(monthlyReceipt.membership?.benefitsValue, 334);
    assert.equal(monthlyReceipt.membership?.donation, 4_666);

    // A plain gift (no level) keeps nothing of a level.
    const plain = giftFixture({
      amount: 5_000,
      currency: 2,
      user: { firstName: "P", lastName: "P", email: "plain@example.com" },
    });
    await store.transactions.record(plain);
    assert.equal((await issue(store, plain)).membership, undefined);

    // The level edited later: issued receipts keep what they said, read back from storage.
    await setLevel3(store, { dollars: 5_000, nis: 0 }, 10);
    assert.deepEqual((await store.receipts.byTransaction(us.id))?.membership, usReceipt.membership);
    assert.equal((await store.receipts.byTransaction(il.id))?.membership?.donation, 12_000);
    assert.equal((await issue(store, us)).membership?.donation, 1_000);

    // Benefits worth the whole payment: nothing deductible, never below zero.
    const whole = giftFixture({
      amount: 5_000,
      currency: 2,
      user: { firstName: "W", lastName: "W", email: "whole@example.com" },
    });
    await giveAtLevel(store, whole, 3);
    assert.equal((await issue(store, whole)).membership?.donation, 0);
  },
);

/** The receipt email of `tx` in `lang`, rendered as the outbox sends it, its receipt issued for real. */
async function receiptEmail(store: Store, tx: Transaction, lang: "en" | "he") {
  const render = createRenderer({
    store,
    publicUrl: "https://donate.example.org",
    manageKey: await manageLinkKey(SECRET),
    signInKey: await signInKey(SECRET),
    receiptAttachment: receiptAttachmentFor({
      store,
      settings: SETTINGS,
      appSecret: SECRET,
      origin: "https://donate.example.org",
      // The PDF itself is read by pdf_layout_test.ts: here only the email's words count.
      renderPdf: () => Promise.resolve(new TextEncoder().encode("%PDF-1.7")),
    }),
  });
  return (await render({
    key: `receipt:${tx.id}`,
    kind: "receipt",
    to: { donorId: tx.donorId },
    language: lang,
    data: { transactionId: tx.id },
    createdAt: tx.createdAt,
  }))!;
}

backendTest(
  "receipt email of a gift at a level: the US deductible amount, the Israeli donation share",
  async (_t, open) => {
    const store = await open();
    await setLevel3(store, { dollars: 4_000, nis: 16_000 }, 60);
    const donor = async (email: string) =>
      (await store.donors.create({
        id: `donor_${crypto.randomUUID().slice(0, 12)}`,
        firstName: "Ada",
        lastName: "Lovelace",
        email,
        country: "US",
        createdAt: "2026-03-01T09:00:00.000Z",
        paymentDate: null,
        nextPaymentDate: null,
        monthlyPaymentAvailable: false,
        israeliId: null,
      })).id;

    const us = giftFixture({
      donorId: await donor("us@example.com"),
      user: { firstName: "Ada", lastName: "L", email: "us@example.com" },
    });
    await giveAtLevel(store, us, 3);
    const en = translator("en");
    const usMail = await receiptEmail(store, us, "en");
    assert.ok(usMail.text.includes(`${en("membershipReceipt.deductible")}: $10.00`), usMail.text);
    assert.ok(usMail.text.includes(`${en("membershipReceipt.value")}: $40.00`));
    assert.ok(usMail.text.includes(en("membershipReceipt.goodsValue", { level: "\u2068Family\u2069" })));
    assert.ok(usMail.text.includes("whose fair market value it estimates in good faith at"));

    const il = giftFixture({
      donorId: await donor("il@example.com"),
      amount: 20_000,
      currency: 1,
      user: { firstName: "Dana", lastName: "K", email: "il@example.com" },
    });
    await giveAtLevel(store, il, 3);
    const he = translator("he");
    const ilMail = await receiptEmail(store, il, "he");
    assert.ok(ilMail.text.includes(`${he("membershipReceipt.level")}: משפחה`), ilMail.text);
    assert.ok(ilMail.text.includes(he("membershipReceipt.donation")));
    assert.ok(ilMail.text.includes("120.00"), "60% of ₪200");
    assert.equal(ilMail.dir, "rtl");
    assert.equal(ilMail.attachments.length, 1);
    assert.deepEqual(Object.keys(ilMail.attachments[0]).sort(), ["content", "contentType", "filename"]);
  },
);
