/**
 * The email templates: every message kind's renderer, and {@link createRenderer}, the function
 * the outbox's sender and the dev mailbox take injected.
 *
 * @module
 */
import type { RenderedMessage } from "@/lib/storage/message_types.ts";
import { renderSignInLink } from "./account_messages.ts";
import {
  renderChargeFailed,
  renderManageLink,
  renderMonthlyCancelled,
  renderMonthlyWelcome,
  renderReceipt,
} from "./donor_messages.ts";
import {
  createMessageRenderer,
  type KindRenderers,
  type MessageToRender,
  type RenderDeps,
} from "./render.ts";
import { renderAdminPending, renderYearlyStatement } from "./statements.ts";
import { renderMonthlyChanged } from "./gift_changes.ts";
import { renderCardUpdated } from "./card_update.ts";
import { renderRefund } from "./refund.ts";
import {
  renderMembershipLapsed,
  renderMembershipReminder,
  renderMembershipWinback,
} from "./membership_renewals.ts";
import { renderMemberCard, renderMembership } from "./membership.ts";
import { renderAutoRenewFailed, renderAutoRenewNotice } from "./membership_auto_renew.ts";
import { renderGiftDelivery } from "./gift_membership.ts";

export type { MessageToRender, RenderDeps } from "./render.ts";

/** Every kind's renderer. */
export const RENDERERS: KindRenderers = {
  "receipt": renderReceipt,
  "monthly-welcome": renderMonthlyWelcome,
  "charge-failed": renderChargeFailed,
  "monthly-cancelled": renderMonthlyCancelled,
  "monthly-changed": renderMonthlyChanged,
  "yearly-statement": renderYearlyStatement,
  "manage-link": renderManageLink,
  "admin-pending": renderAdminPending,
  "sign-in-link": renderSignInLink,
  "card-updated": renderCardUpdated,
  "refund": renderRefund,
  "membership-reminder": renderMembershipReminder,
  "membership-lapsed": renderMembershipLapsed,
  "membership-winback": renderMembershipWinback,
  "membership-autorenew-notice": renderAutoRenewNotice,
  "membership-autorenew-failed": renderAutoRenewFailed,
  "membership": renderMembership,
  "member-card": renderMemberCard,
  "gift-membership-delivery": renderGiftDelivery,
};

/**
 * The renderer of every message kind: a stored message in, the email to send out, or null when
 * there is nothing to send.
 *
 * @example
 * ```ts
 * const render = createRenderer({
 *   store,
 *   publicUrl: config.publicUrl ?? "http://localhost:8000",
 *   manageKey: await manageLinkKey(config.appSecret),
 *   receiptAttachment: receiptAttachmentFor({ store, settings: config.receipts, appSecret, origin }),
 * });
 * ```
 */
export function createRenderer(
  deps: RenderDeps,
): (message: MessageToRender) => Promise<RenderedMessage | null> {
  return createMessageRenderer(deps, RENDERERS);
}
