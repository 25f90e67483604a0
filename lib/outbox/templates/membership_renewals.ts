/**
 * The renewal emails (issue 27, item 5; enqueued by `lib/memberships/renewals.ts`): a reminder
 * before a membership's end, the lapse email and the win-back email. Each is rendered when sent,
 * from the membership as stored then: nothing is sent when it was erased, renewed meanwhile (its end
 * moved) or an active monthly gift keeps it. Each carries the one-click renewal link
 * (`/{lang}/?renew=<token>`, the donation page at the member's level, prefilled); without the
 * renewal key (a renderer wired without it), the link opens the page at the level only. Its words
 * are the locale object `membershipRenewals`.
 *
 * @module
 */
import {
  createRenewalToken,
  isRenewalStillDue,
  RENEWAL_LINK_TTL_MS,
  renewalLinkUrl,
} from "@/lib/memberships/mod.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import { levelById } from "@/lib/shared/museum.ts";
import type { Donor, Membership } from "@/lib/storage/types.ts";
import type { EmailAction } from "./content.ts";
import { emailDate } from "./format.ts";
import { giverReminderEmail } from "./gift_membership.ts";
import {
  donorFrame,
  type KindRenderer,
  type MessageToRender,
  recipientDonor,
  rendered,
  type RenderEnv,
} from "./render.ts";

type RenewalMessage = MessageToRender & { data: { email: string; end: string } };

/** The membership and donor the message is about, or null when it is no longer worth sending. */
export async function still(message: RenewalMessage, env: RenderEnv) {
  const donor = await recipientDonor(message, env);
  if (!donor) return null;
  const membership = await env.store.memberships.get(message.data.email);
  const billing = membership?.subscriptionId
    ? await env.store.subscriptions.get(membership.subscriptionId)
    : null;
  if (!isRenewalStillDue(membership, message.data.end, billing)) return null;
  const levelId = membership!.terms.at(-1)!.levelId;
  const { levels } = await readMuseumSettings(env.store);
  const level = levelById(levels, levelId);
  const levelName = level ? level.name[env.lang] ?? level.name.en : "";
  return { donor, membership: membership!, levelId, levelName };
}

/** The renewal link's button: a fresh token, valid from now; the level's page without the key. */
export async function renewAction(env: RenderEnv, membership: Membership, levelId: number, label: string) {
  const now = env.now();
  if (!env.renewalKey) {
    const url = new URL(`/${env.lang}/`, env.publicUrl);
    url.searchParams.set("level", String(levelId));
    return { label, url: url.href } satisfies EmailAction;
  }
  const token = await createRenewalToken(env.renewalKey, { email: membership.email, levelId }, now);
  return {
    label,
    url: renewalLinkUrl(env.publicUrl, env.lang, token),
    note: env.t("membershipRenewals.linkNote", {
      date: emailDate(new Date(now.getTime() + RENEWAL_LINK_TTL_MS), env.lang),
    }),
  } satisfies EmailAction;
}

/** The membership's rows in an email: number, level and the end under `endLabel`. */
export function details(env: RenderEnv, membership: Membership, levelName: string, endLabel: string) {
  const { t, lang } = env;
  return [
    [t("membershipRenewals.labels.number"), membership.number],
    [t("membershipRenewals.labels.level"), levelName],
    [t(endLabel), emailDate(membership.end, lang)],
  ] as [string, string][];
}

function frame(env: RenderEnv, donor: Donor) {
  return donorFrame(env, donor);
}

/** A reminder `days` before the end (0: on the day). */
export const renderMembershipReminder: KindRenderer<"membership-reminder"> = async (message, env) => {
  const found = await still(message, env);
  if (!found) return null;
  const { donor, membership, levelId, levelName } = found;
  // A gift membership's giver (issue 28): the membership they gave is ending.
  if (donor.id !== membership.donorId && membership.terms.at(-1)?.gift?.giverDonorId === donor.id) {
    return await giverReminderEmail(env, donor, membership, levelId, levelName);
  }
  const { t, lang } = env;
  const vars = { level: levelName, museum: env.museum, date: emailDate(membership.end, lang) };
  const today = message.data.days === 0;
  return rendered(env, [donor.email], {
    ...frame(env, donor),
    subject: t(
      today ? "membershipRenewals.reminder.subjectToday" : "membershipRenewals.reminder.subject",
      vars,
    ),
    heading: t("membershipRenewals.reminder.heading"),
    paragraphs: [
      t(today ? "membershipRenewals.reminder.bodyToday" : "membershipRenewals.reminder.body", vars),
    ],
    details: details(env, membership, levelName, "membershipRenewals.labels.validUntil"),
    actions: [await renewAction(env, membership, levelId, t("membershipRenewals.renewButton"))],
  });
};

/** The lapse email (`membership-lapsed`) or the win-back email (`membership-winback`). */
function renderEnded(kind: "lapsed" | "winback"): KindRenderer<"membership-lapsed" | "membership-winback"> {
  return async (message, env) => {
    const found = await still(message, env);
    if (!found) return null;
    const { donor, membership, levelId, levelName } = found;
    const { t, lang } = env;
    const vars = { level: levelName, museum: env.museum, date: emailDate(membership.end, lang) };
    const button = kind === "lapsed" ? "membershipRenewals.renewButton" : "membershipRenewals.rejoinButton";
    return rendered(env, [donor.email], {
      ...frame(env, donor),
      subject: t(`membershipRenewals.${kind}.subject`, vars),
      heading: t(`membershipRenewals.${kind}.heading`),
      paragraphs: [t(`membershipRenewals.${kind}.body`, vars)],
      details: details(env, membership, levelName, "membershipRenewals.labels.ended"),
      actions: [await renewAction(env, membership, levelId, t(button))],
    });
  };
}

/** The lapse email. */
export const renderMembershipLapsed = renderEnded("lapsed");
/** The one win-back email. */
export const renderMembershipWinback = renderEnded("winback");
