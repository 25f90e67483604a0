/**
 * What the email templates' tests share: a store with a donor, the renderer wired with a fixed
 * clock, a fake receipt PDF, records built by hand, and the checks every donor email must pass
 * (its manage link opens this donor's page; its language and direction are set).
 *
 * @module
 */
import { signInKey } from "@/lib/donor_portal/sign_in.ts";
import { renewalKey } from "@/lib/memberships/mod.ts";
import assert from "node:assert/strict";
import { newId } from "@/lib/core/ids.ts";
import type { Attachment, MessageInput, RenderedMessage } from "@/lib/storage/message_types.ts";
import { createRenderer, type MessageToRender } from "@/lib/outbox/templates/mod.ts";
import { manageLinkKey, readManageToken } from "@/lib/donor_portal/manage_link.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { openStore } from "@/lib/storage/mod.ts";
import type { Donor, Store, Subscription, Transaction } from "@/lib/storage/types.ts";

export const SECRET = "templates-test-secret-0123456789abcdefgh";
export const PUBLIC_URL = "https://donate.museum.example";
export const NOW = new Date("2026-03-10T08:00:00Z");

export interface Fixture {
  store: Store;
  donor: Donor;
  render: (message: MessageToRender) => Promise<RenderedMessage | null>;
  attached: Transaction[];
}

export async function fixture(firstName = "Dana"): Promise<Fixture> {
  const store = await openStore({ kvPath: ":memory:" });
  const donor = await store.donors.create({
    id: newId(),
    firstName,
    lastName: "Levi",
    email: "dana@example.org",
    country: "Israel",
    createdAt: "2026-01-05T10:00:00.000Z",
    paymentDate: null,
    nextPaymentDate: null,
    monthlyPaymentAvailable: true,
    israeliId: null,
  });
  const attached: Transaction[] = [];
  const render = createRenderer({
    store,
    publicUrl: PUBLIC_URL,
    manageKey: await manageLinkKey(SECRET),
    signInKey: await signInKey(SECRET),
    renewalKey: await renewalKey(SECRET),
    now: () => NOW,
    receiptAttachment: (tx): Promise<Attachment | null> => {
      attached.push(tx);
      return Promise.resolve({
        filename: `receipt-${tx.id}.pdf`,
        contentType: "application/pdf",
        content: new TextEncoder().encode(`%PDF ${tx.id}`),
      });
    },
  });
  return { store, donor, render, attached };
}

export function transaction(donor: Donor, over: Partial<Transaction> = {}): Transaction {
  return {
    id: newId(),
    kind: "success",
    statusCode: "000",
    isMonthly: false,
    createdAt: "2026-03-05T14:07:00.000Z",
    donorId: donor.id,
    user: { firstName: donor.firstName, lastName: donor.lastName, email: donor.email },
    amount: 18000,
    currency: 1,
    resultData: {
      CreditCardNumber: "458045******4580",
      CreditType: "1",
      DebitTotal: "18000",
      DebitCurrency: 1,
    },
    errorMessage: null,
    provider: "sandbox",
    providerTransactionId: newId(),
    ...over,
  };
}

export function subscription(donor: Donor, over: Partial<Subscription> = {}): Subscription {
  return {
    id: `sub_${newId()}`,
    donorId: donor.id,
    amount: 5000,
    currency: 2,
    provider: "sandbox",
    token: "tok",
    cardMasked: "************1234",
    language: "en",
    status: "active",
    createdAt: "2026-03-05T14:07:00.000Z",
    paymentDate: "2026-03-05T14:07:00.000Z",
    nextPaymentDate: "2026-04-05T14:07:00.000Z",
    failedAttempts: 0,
    retryAt: null,
    cancelledAt: null,
    version: 0,
    pausedFrom: null,
    charging: null,
    cancelReason: null,
    ...over,
  };
}

export const message = (input: Omit<MessageInput, "key"> & { key?: string }): MessageToRender => ({
  key: input.key ?? `${input.kind}:test`,
  createdAt: NOW.toISOString(),
  ...input,
});

/** The manage link in the text, checked to open this donor's page in this language. */
export async function assertManageLink(rendered: RenderedMessage, donor: Donor, lang: Lang) {
  const m = rendered.text.match(/https:\/\/donate\.museum\.example\/(\w+)\/account\?token=(\S+)/);
  assert.ok(m, "the text carries the manage link");
  assert.equal(m[1], lang);
  const read = await readManageToken(await manageLinkKey(SECRET), m[2], NOW);
  assert.equal(read.kind, "valid");
  assert.equal(read.kind === "valid" && read.donorId, donor.id);
  assert.ok(rendered.html.includes(`href="${m[0]}"`), "the HTML carries the same link");
  assert.ok(!rendered.text.includes(`userId=`) && !rendered.html.includes(donor.id), "never the bare id");
}

/** The document's language and direction, on `<html>` and on the content. */
export function assertDirection(rendered: RenderedMessage, lang: Lang) {
  const dir = lang === "he" ? "rtl" : "ltr";
  assert.equal(rendered.dir, dir);
  assert.equal(rendered.language, lang);
  assert.ok(rendered.html.startsWith(`<!DOCTYPE html><html lang="${lang}" dir="${dir}">`));
  assert.ok(rendered.html.includes(`<div lang="${lang}" dir="${dir}"`));
}
