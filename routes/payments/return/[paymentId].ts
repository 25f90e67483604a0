import type { Handlers, RouteContext } from "@/lib/framework/mod.ts";
import { isLang } from "@/lib/shared/languages.ts";
import { paymentsContext } from "@/lib/app/payments.ts";
import { ProviderError } from "@/lib/providers/provider.ts";
import { completePayment } from "@/lib/donations/completion.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * Where the browser comes back from the provider's page (success, error and cancel alike). The
 * server asks the provider for the result, records it, and sends the donor to the result page:
 * `/{lang}/success?{Provider}TransactionId=…` or `/{lang}/error?{Provider}StatusCode=…&{Provider}TransactionId=…`
 * (terminal test payments: `/{lang}/terminal-success/{shop}` and `terminal-error`). Whatever the
 * query string claims is ignored.
 */
async function handle(_req: Request, ctx: RouteContext<unknown, AppState>): Promise<Response> {
  const { services } = ctx.state;
  const id = ctx.params.paymentId;
  const payment = /^[A-Za-z0-9_-]{16,64}$/.test(id) ? await services.store.payments.get(id) : null;
  if (!payment) return ctx.renderNotFound();
  const lang = isLang(payment.language) ? payment.language : "en";
  const payments = paymentsContext(services, false, ctx.url, ctx.state.log);
  const name = payments.provider.displayName;
  const terminal = payment.channel === "test-terminal";
  const shop = encodeURIComponent(payment.shopNumber ?? "");
  const to = (ok: boolean, code: string | null) => {
    const params = new URLSearchParams();
    if (!ok && code) params.set(`${name}StatusCode`, code);
    if (payment.providerRef) params.set(`${name}TransactionId`, payment.providerRef);
    const page = terminal ? `terminal-${ok ? "success" : "error"}/${shop}` : ok ? "success" : "error";
    return new Response(null, { status: 303, headers: { location: `/${lang}/${page}?${params}` } });
  };
  try {
    const { outcome, result, transaction } = await completePayment(payments, payment);
    // A failure as recorded (the provider's later answer, or none asked, does not change it).
    const code = outcome === "pending" ? null : transaction?.statusCode ?? result?.statusCode ?? null;
    return to(outcome === "succeeded", code);
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    ctx.state.log.error("could not verify a returned payment", { paymentId: payment.id, error: e.message });
    // 306: no communication with the payment processor (the error page explains it).
    return to(false, "306");
  }
}

export const handler: Handlers<unknown, AppState> = { GET: handle, POST: handle };
