/**
 * The renderer the app sends with: every message kind's template (`templates/`), with the receipt
 * PDF from `lib/receipts` attached to receipt emails (and the credit receipt to refund emails),
 * drawn by the app's receipt workers. The receipt modules load with the first receipt rendered,
 * not with the server: a cold start does not pay for them.
 *
 * @module
 */
import type { Config } from "./config.ts";
import type { RenderMemberCard } from "@/lib/memberships/mod.ts";
import { manageLinkKey, signInKey } from "@/lib/donor_portal/mod.ts";
import { autoRenewOffKey, renewalKey } from "@/lib/memberships/mod.ts";
import { loadCreditReceipt, loadReceiptAttachment, type RenderReceiptPdf } from "@/lib/receipts/mod.ts";
import type { Store } from "@/lib/storage/types.ts";
import type { RenderMessage } from "@/lib/outbox/outbox_sender.ts";
import { createRenderer, type RenderDeps } from "@/lib/outbox/templates/mod.ts";

type ReceiptAttachment = RenderDeps["receiptAttachment"];
type CreditReceiptAttachment = NonNullable<RenderDeps["creditReceiptAttachment"]>;

/**
 * The app's {@link RenderMessage}: links in emails point at `config.publicUrl` (in development,
 * `http://localhost:<PORT>`); receipt PDFs are drawn by `renderPdf` (the app's worker pool,
 * `services.receiptPdfs`).
 *
 * @example
 * ```ts
 * const pdfs = new ReceiptPdfPool();
 * const render = await appRenderer(config, store, pdfs.render);
 * ```
 */
export async function appRenderer(
  config: Config,
  store: Store,
  renderPdf: RenderReceiptPdf,
  renderCard?: RenderMemberCard,
): Promise<RenderMessage> {
  const publicUrl = config.publicUrl ?? `http://localhost:${config.port}`;
  const deps = {
    store,
    settings: config.receipts,
    appSecret: config.appSecret,
    origin: publicUrl,
    renderPdf,
  };
  let attach: Promise<ReceiptAttachment> | null = null;
  const receiptAttachment: ReceiptAttachment = async (transaction, language) => {
    attach ??= loadReceiptAttachment().then(({ receiptAttachmentFor }) => receiptAttachmentFor(deps));
    return await (await attach)(transaction, language);
  };
  let credit: Promise<CreditReceiptAttachment> | null = null;
  const creditReceiptAttachment: CreditReceiptAttachment = async (transaction, refund, language) => {
    credit ??= loadCreditReceipt().then(({ creditReceiptAttachmentFor }) => creditReceiptAttachmentFor(deps));
    return await (await credit)(transaction, refund, language);
  };
  return createRenderer({
    store,
    publicUrl,
    manageKey: await manageLinkKey(config.appSecret),
    signInKey: await signInKey(config.appSecret),
    renewalKey: await renewalKey(config.appSecret),
    autoRenewOffKey: await autoRenewOffKey(config.appSecret),
    receiptAttachment,
    creditReceiptAttachment,
    ...(renderCard
      ? {
        memberCards: {
          store,
          appSecret: config.appSecret,
          render: renderCard,
          graceDays: config.memberships.graceDays,
        },
      }
      : {}),
  });
}
