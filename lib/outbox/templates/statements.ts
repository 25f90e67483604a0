/**
 * The yearly statement (January: every gift of the past year, found by the donor's email address,
 * since a donor record is made per donation form) and the staff's message about an admin awaiting
 * approval.
 *
 * @module
 */
import type { Store, Transaction } from "@/lib/storage/types.ts";
import { emailDate, emailMoney } from "./format.ts";
import { donorFrame, type KindRenderer, manageAction, recipientDonor, rendered } from "./render.ts";

/** Transactions read per storage call while looking for an address's gifts. */
const BATCH = 1_000;

/**
 * The successful gifts made with an email address in a calendar year (UTC), oldest first. Walks
 * the success list newest first with the address as the search, and stops at the year's start.
 *
 * @example
 * ```ts
 * const gifts = await giftsOfYear(store, "dana@example.org", 2026);
 * ```
 */
export async function giftsOfYear(
  store: Pick<Store, "transactions">,
  email: string,
  year: number,
): Promise<Transaction[]> {
  const address = email.trim().toLowerCase();
  const from = new Date(Date.UTC(year, 0, 1)).toISOString();
  const to = new Date(Date.UTC(year + 1, 0, 1)).toISOString();
  const gifts: Transaction[] = [];
  let before: string | null = null;
  do {
    const batch = await store.transactions.scan({ kind: "success", search: address, before, limit: BATCH });
    for (const tx of batch.data) {
      if (tx.createdAt < from) return gifts.reverse();
      if (tx.createdAt < to && tx.user.email.trim().toLowerCase() === address && tx.amount && tx.currency) {
        gifts.push(tx);
      }
    }
    before = batch.next;
  } while (before !== null);
  return gifts.reverse();
}

/** The yearly statement: a table of the year's gifts with a total per currency. */
export const renderYearlyStatement: KindRenderer<"yearly-statement"> = async (message, env) => {
  const donor = await recipientDonor(message, env);
  if (!donor) return null;
  const { year } = message.data;
  const gifts = await giftsOfYear(env.store, donor.email, year);
  if (gifts.length === 0) return null;
  const { t, lang } = env;
  const totals = new Map<1 | 2, number>();
  for (const tx of gifts) totals.set(tx.currency!, (totals.get(tx.currency!) ?? 0) + tx.amount!);
  return rendered(env, [donor.email], {
    ...donorFrame(env, donor),
    subject: t("email.yearly.subject", { museum: env.museum, year }),
    heading: t("email.yearly.heading", { year }),
    paragraphs: [t("email.yearly.body", { year })],
    table: {
      caption: t("email.yearly.caption", { year }),
      head: [t("email.labels.date"), t("email.labels.kind"), t("email.labels.amount")],
      rows: gifts.map((tx) => [
        emailDate(tx.createdAt, lang),
        t(tx.isMonthly ? "email.labels.monthly" : "email.labels.oneTime"),
        emailMoney(tx.amount!, tx.currency!, lang),
      ]),
      foot: [...totals].sort(([a], [b]) => a - b).map(([currency, sum]) => [
        t("email.labels.total", { currency: currency === 1 ? "ILS" : "USD" }),
        "",
        emailMoney(sum, currency, lang),
      ]),
    },
    actions: [await manageAction(env, donor.id)],
    after: [t("email.yearly.note")],
  });
};

/** To the approved admins: an account awaits approval (nothing once it was decided). */
export const renderAdminPending: KindRenderer<"admin-pending"> = async (message, env) => {
  const admin = await env.store.admins.get(message.data.adminId);
  if (!admin || admin.status !== "pending") return null;
  const to = (await env.store.admins.listByStatus("approved")).map((a) => a.email);
  if (to.length === 0) return null;
  const { t, lang } = env;
  const who = { name: admin.name, email: admin.email, date: emailDate(admin.createdAt, lang) };
  return rendered(env, to, {
    brand: env.museum,
    subject: t("email.adminPending.subject", who),
    heading: t("email.adminPending.heading"),
    greeting: t("email.adminPending.greeting"),
    paragraphs: [t("email.adminPending.body", who)],
    actions: [{ label: t("email.adminPending.action"), url: new URL(`/${lang}/admin`, env.publicUrl).href }],
    footer: t("email.staffFooter", { museum: env.museum }),
  });
};
