/**
 * Rendering a stored message for sending: what every renderer shares (the store it reads, the
 * site's address for links, the manage link, the receipt's PDF), and the dispatch from a message's
 * kind to its renderer. The outbox's sender and the dev mailbox take {@link createMessageRenderer}'s
 * function injected, so the outbox never imports the templates.
 *
 * A renderer answers `null` when there is nothing to send (the donor or admin no longer exists, the
 * transaction is not a success, the gift was already cancelled before its welcome went out).
 *
 * @module
 */
import type { SignInKey } from "@/lib/donor_portal/mod.ts";
import type { MemberCardContext, RenewalKey } from "@/lib/memberships/mod.ts";
import { translator } from "@/lib/core/i18n.ts";
import type {
  Attachment,
  MessageData,
  MessageInput,
  MessageKind,
  RenderedMessage,
} from "@/lib/storage/message_types.ts";
import {
  createManageToken,
  MANAGE_LINK_TTL_MS,
  type ManageLinkKey,
  manageLinkUrl,
} from "@/lib/donor_portal/mod.ts";
import { dirOf, FALLBACK_LANG, isLang, type Lang } from "@/lib/shared/languages.ts";
import type { Donor, Refund, Store, Transaction } from "@/lib/storage/types.ts";
import type { TFunction } from "i18next";
import { type EmailAction, type EmailContent, emailText } from "./content.ts";
import { emailDate } from "./format.ts";
import { emailHtml } from "./layout.tsx";

/** A message as the outbox holds it (its intent), ready to render. */
export type MessageToRender = MessageInput & { createdAt: string };

/**
 * A receipt's PDF as the receipt email attaches it, with what the receipt says of a gift at a
 * membership level (`lib/receipts/membership_lines.ts`: its rows and statement, in the message's
 * language), so the email says what the receipt says.
 */
export type ReceiptForEmail = Attachment & {
  membership?: { rows: [label: string, value: string][]; statement: string };
};

/** What the renderers need, injected by whoever sends (the integrator wires the real ones). */
export interface RenderDeps {
  store: Pick<
    Store,
    "donors" | "transactions" | "subscriptions" | "admins" | "refunds" | "memberships" | "museum"
  >;
  /** The site's public origin, for links in emails (`config.publicUrl`). */
  publicUrl: string;
  /** The manage tokens' key (`manageLinkKey(config.appSecret)`). */
  manageKey: ManageLinkKey;
  /** The donor portal's sign-in links' key (`signInKey(config.appSecret)`, `lib/donor_portal/sign_in.ts`). */
  signInKey: SignInKey;
  /**
   * The renewal links' key (`renewalKey(config.appSecret)`, `lib/memberships/renewal_link.ts`);
   * without it the renewal emails link to the donation page at the member's level, not prefilled.
   */
  renewalKey?: RenewalKey;
  /**
   * The auto-renewal turn-off links' key (`autoRenewOffKey(config.appSecret)`,
   * `lib/memberships/auto_renew.ts`); without it the notice carries no turn-off link (the portal's).
   */
  autoRenewOffKey?: Uint8Array;
  /**
   * The receipt PDF of a successful transaction in a language (issued on first call,
   * `lib/receipts`), or null when no receipt can be issued (receipts not configured).
   */
  receiptAttachment: (transaction: Transaction, language: string) => Promise<ReceiptForEmail | null>;
  /**
   * A succeeded refund's credit receipt (`lib/receipts/credit.ts`): the PDF, its number and the
   * number of the gift's receipt it credits; null (or absent) when no receipt can be issued.
   */
  creditReceiptAttachment?: (
    transaction: Transaction,
    refund: Refund,
    language: string,
  ) => Promise<{ attachment: Attachment; number: string; of: string } | null>;
  /**
   * The museum's name as emails say it (e.g. its legal name from the receipt settings); by default
   * the site's translated museum title (`welcome.museumTitle`).
   */
  museumName?: string;
  /**
   * How the membership emails draw the member cards they attach (`lib/memberships/card.ts`); without
   * it they go without cards.
   */
  memberCards?: MemberCardContext;
  /** The clock (for the manage link's expiry); tests fix it. */
  now?: () => Date;
}

/** One kind's renderer. */
export type KindRenderer<K extends MessageKind> = (
  message: MessageToRender & { kind: K; data: MessageData[K] },
  env: RenderEnv,
) => Promise<RenderedMessage | null>;

/** What a renderer gets besides its message: the deps, the language and its translations. */
export interface RenderEnv extends RenderDeps {
  lang: Lang;
  t: TFunction;
  /** The museum's name as emails show it. */
  museum: string;
  now: () => Date;
}

/** A renderer for every message kind. */
export type KindRenderers = { [K in MessageKind]: KindRenderer<K> };

/**
 * The function the sender calls for each message: picks the kind's renderer, in the message's
 * language (English when it is not one of the five).
 *
 * @example
 * ```ts
 * const render = createMessageRenderer(deps, RENDERERS);
 * const rendered = await render(stored); // RenderedMessage, or null: nothing to send
 * ```
 */
export function createMessageRenderer(
  deps: RenderDeps,
  renderers: KindRenderers,
): (message: MessageToRender) => Promise<RenderedMessage | null> {
  return (message) => {
    const lang = isLang(message.language) ? message.language : FALLBACK_LANG;
    const t = translator(lang);
    const env: RenderEnv = {
      ...deps,
      lang,
      t,
      museum: deps.museumName ?? t("welcome.museumTitle"),
      now: deps.now ?? (() => new Date()),
    };
    const render = renderers[message.kind] as KindRenderer<MessageKind>;
    if (!render) return Promise.resolve(null);
    return render(message as never, env);
  };
}

/**
 * A rendered message from its content: HTML and text from the same words, direction from the
 * language.
 */
export function rendered(
  env: RenderEnv,
  to: string[],
  content: EmailContent,
  attachments: Attachment[] = [],
): RenderedMessage {
  const dir = dirOf(env.lang);
  return {
    to,
    subject: content.subject,
    html: emailHtml(content, env.lang, dir),
    text: emailText(content),
    attachments,
    dir,
    language: env.lang,
  };
}

/**
 * The donor a message goes to, or null (an admins' message, or the donor no longer exists or was
 * erased at their request: every renderer then answers null, and the sender skips the message).
 */
export async function recipientDonor(message: MessageToRender, env: RenderEnv): Promise<Donor | null> {
  const donor = "donorId" in message.to ? await env.store.donors.get(message.to.donorId) : null;
  return donor && donor.erasedAt === undefined ? donor : null;
}

/** The manage-link button of a donor email: a fresh token, valid from now. */
export async function manageAction(env: RenderEnv, donorId: string): Promise<EmailAction> {
  const now = env.now();
  const token = await createManageToken(env.manageKey, donorId, now);
  return {
    label: env.t("email.manageButton"),
    url: manageLinkUrl(env.publicUrl, env.lang, token),
    note: env.t("email.manageNote", {
      date: emailDate(new Date(now.getTime() + MANAGE_LINK_TTL_MS), env.lang),
    }),
  };
}

/** The link to the donation page, for "make a new donation". */
export function donateAction(env: RenderEnv): EmailAction {
  return { label: env.t("email.donateButton"), url: new URL(`/${env.lang}`, env.publicUrl).href };
}

/**
 * What every donor email shares: greeting, sign-off and footer. `byName: false` greets the address
 * instead: a message sent to an address (a sign-in link) may not carry a donor record's name, which
 * anyone can type on a record under any address without paying.
 */
export function donorFrame(env: RenderEnv, donor: Donor, { byName = true } = {}) {
  return {
    brand: env.museum,
    greeting: byName ? env.t("email.greeting", { name: donor.firstName }) : env.t("email.greetingAddress"),
    signoff: [env.t("email.signoff"), env.museum],
    footer: env.t("email.footer", { museum: env.museum }),
  };
}
