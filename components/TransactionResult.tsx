/**
 * What the four result pages (online and terminal success and error) share: reading the
 * provider-named query parameters, finding the server's own record of the transaction they name,
 * and rendering the transaction id and the details block. Server only.
 *
 * The query string is never trusted: a page shows a transaction id, an amount or a status code
 * only from the record the server made when it verified the payment with the provider (see
 * `lib/donations/completion.ts`). A query that names no recorded transaction shows no id, and its
 * status code only chooses the explanatory message.
 *
 * @module
 */
import type { TFunction } from "@/lib/core/i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { formatMoney } from "@/lib/shared/money.ts";
import type { PaymentProvider, ProviderFactory } from "@/lib/providers/provider.ts";
import type { Payment, Store, Transaction } from "@/lib/storage/types.ts";

/** A provider's transaction id as our routes write them (sandbox ids, Pelecard GUIDs, terminal refs). */
const TRANSACTION_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** Provider status codes are three digits. */
const STATUS_CODE = /^\d{3}$/;

/** What the result pages read of the app's services: the provider and the records. */
export interface ResultServices {
  providerFor: ProviderFactory;
  config: { publicUrl?: string };
  store: Pick<Store, "transactions" | "payments">;
}

/** What a result page's query string says (not yet believed). */
export interface ResultQuery {
  /** `{Provider}TransactionId` when well-formed. */
  transactionId: string | null;
  /** `{Provider}StatusCode` when well-formed. */
  statusCode: string | null;
}

/** The server's record behind a result page, when there is one. */
export interface ResultRecord {
  provider: PaymentProvider;
  query: ResultQuery;
  transaction: Transaction | null;
  /** The payment the transaction belongs to (amount, shop), when found. */
  payment: Payment | null;
}

/**
 * Reads `{Provider}TransactionId` and `{Provider}StatusCode` (e.g. `SandboxTransactionId`) and looks
 * the transaction up in storage under the current provider.
 *
 * @example
 * ```ts
 * const { transaction, query } = await loadResult(ctx.state.services, ctx.url);
 * ```
 */
async function loadResult(services: ResultServices, url: URL): Promise<ResultRecord> {
  const provider = services.providerFor(services.config.publicUrl ?? url.origin);
  const name = provider.displayName;
  const id = url.searchParams.get(`${name}TransactionId`);
  const code = url.searchParams.get(`${name}StatusCode`);
  const query: ResultQuery = {
    transactionId: id && TRANSACTION_ID.test(id) ? id : null,
    statusCode: code && STATUS_CODE.test(code) ? code : null,
  };
  if (!query.transactionId) return { provider, query, transaction: null, payment: null };
  const transaction = await services.store.transactions.getByProviderId(provider.id, query.transactionId);
  const payment = transaction
    ? await services.store.payments.getByProviderRef(provider.id, query.transactionId)
    : null;
  return { provider, query, transaction, payment };
}

/**
 * Where a recorded transaction's own result page is, in the shape the return route uses:
 * `/{lang}/success?…` or `/{lang}/terminal-error/{shop}?…`. A success page reached for a declined
 * transaction (or an error page for an approved one) sends the visitor there instead of showing
 * something false.
 *
 * @example
 * ```ts
 * resultLocation("he", null, record); // "/he/error?SandboxStatusCode=004&SandboxTransactionId=…"
 * ```
 */
function resultLocation(lang: Lang, shop: string | null, record: ResultRecord): string {
  const tx = record.transaction!;
  const name = record.provider.displayName;
  const ok = tx.kind === "success";
  const params = new URLSearchParams();
  if (!ok) params.set(`${name}StatusCode`, tx.statusCode);
  params.set(`${name}TransactionId`, tx.providerTransactionId ?? record.query.transactionId ?? "");
  const page = shop === null
    ? (ok ? "success" : "error")
    : `terminal-${ok ? "success" : "error"}/${encodeURIComponent(shop)}`;
  return `/${lang}/${page}?${params}`;
}

/** A redirect to {@link resultLocation}. */
function redirectTo(location: string): Response {
  return new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });
}

/**
 * What every result page's handler does first: loads the record its query names and, when that
 * record belongs on the other page (a declined transaction on a success page, or the reverse),
 * answers the redirect there instead. `shop` is null for the online pages.
 *
 * @example
 * ```ts
 * const record = await recordForPage(ctx.state.services, ctx.url, lang, "error", null);
 * if (record instanceof Response) return record;
 * ```
 */
export async function recordForPage(
  services: ResultServices,
  url: URL,
  lang: Lang,
  page: "success" | "error",
  shop: string | null,
): Promise<ResultRecord | Response> {
  const record = await loadResult(services, url);
  const tx = record.transaction;
  if (tx && (tx.kind === "success") !== (page === "success")) {
    return redirectTo(resultLocation(lang, shop, record));
  }
  return record;
}

/** The fields both error pages show, from the record only (the query's code only picks the message). */
export interface FailureFields {
  /** The status code whose message explains the failure: the record's, else the query's. */
  statusCode: string | null;
  transactionId: string | null;
  amount: string | null;
  recordedCode: string | null;
  errorMessage: string | null;
}

/** {@link FailureFields} of a record, in the page's language. */
export function failureFields(record: ResultRecord, lang: Lang): FailureFields {
  const tx = record.transaction;
  return {
    statusCode: tx ? tx.statusCode : record.query.statusCode,
    transactionId: tx ? record.query.transactionId : null,
    amount: recordedAmount(tx, lang),
    recordedCode: tx?.statusCode ?? null,
    errorMessage: tx?.errorMessage ?? null,
  };
}

/** The shop's terminal-payment page, where a terminal result page's button and progress bar go. */
export function terminalPaymentHref(lang: Lang, shop: string | undefined): string {
  return shop ? `/${lang}/terminal-payment/${encodeURIComponent(shop)}` : `/${lang}/terminal-payment`;
}

/** The recorded amount with its currency, in the page's language; `null` when not recorded. */
function recordedAmount(tx: Transaction | null, lang: Lang): string | null {
  if (!tx || tx.amount === null || tx.currency === null) return null;
  return formatMoney(tx.amount, tx.currency, lang);
}

/** An id or code, kept left-to-right inside right-to-left text. */
function Code(props: { value: string }) {
  return <bdi dir="ltr" class="code">{props.value}</bdi>;
}

/** "Transaction ID: …" under a result's message, only for a recorded transaction. */
export function TransactionIdLine(props: { label: string; id: string | null }) {
  if (!props.id) return null;
  return (
    <p class="result-id">
      {props.label}: <Code value={props.id} />
    </p>
  );
}

/** One line of the details block; `code` values are ids and status codes (kept left-to-right). */
export interface DetailRow {
  label: string;
  value: string | null | undefined;
  code?: boolean;
}

/**
 * The expandable details block (`<details>`, so it opens without JavaScript); a value the record
 * does not have shows as 'N/A' (spec section 8: empty values are displayed as 'N/A').
 */
export function DetailsBlock(props: { t: TFunction; rows: DetailRow[] }) {
  const { t } = props;
  return (
    <details class="result-details">
      <summary>{t("transactionError.details")}</summary>
      <dl class="details-list">
        {props.rows.map((row) => (
          <div key={row.label}>
            <dt>{row.label}</dt>
            <dd>
              {row.value ? (row.code ? <Code value={row.value} /> : row.value) : t("common.notAvailable")}
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
