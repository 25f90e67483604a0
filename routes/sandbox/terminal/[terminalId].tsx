import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import { formatMoney } from "@/lib/shared/money.ts";
import { sandboxOf } from "@/lib/providers/mod.ts";
import type { AppState } from "@/lib/app/state.ts";
import type { SandboxRecord } from "@/lib/storage/types.ts";

interface Data {
  terminalId: string;
  waiting: SandboxRecord[];
  decided: string | null;
}

/** Codes offered for a decline at the simulated terminal. */
const DECLINE_CODES = ["003", "004", "033", "036", "039", "057", "512", "701"];

/**
 * The sandbox's simulated card terminal: the sale waiting at terminal `{terminalId}`, with
 * approve and decline buttons (plain forms), for a person testing kiosk mode.
 */
export const handler: Handlers<Data, AppState> = {
  async GET(_req, ctx) {
    const terminalId = ctx.params.terminalId;
    if (
      !sandboxOf(ctx.state.services.providerFor(ctx.url.origin)) || !/^[A-Za-z0-9_-]{1,64}$/.test(terminalId)
    ) {
      return ctx.renderNotFound();
    }
    const waiting = await ctx.state.services.store.sandbox.listByTerminal(terminalId, "waiting");
    return ctx.render({ terminalId, waiting, decided: ctx.url.searchParams.get("decided") });
  },
  async POST(req, ctx) {
    const sandbox = sandboxOf(ctx.state.services.providerFor(ctx.url.origin));
    if (!sandbox) return ctx.renderNotFound();
    const form = await req.formData().catch(() => new FormData());
    const ref = String(form.get("ref") ?? "");
    const code = form.get("action") === "approve" ? "000" : String(form.get("code") ?? "004");
    const ok = /^\d{3}$/.test(code) && await sandbox.decideTerminalSale(ref, code);
    const back = `${ctx.url.pathname}?decided=${ok ? code : "none"}`;
    return new Response(null, { status: 303, headers: { location: back } });
  },
};

export default function SandboxTerminal({ data, state }: PageProps<Data, AppState>) {
  const { t, lang } = state;
  return (
    <main id="main" class="sandbox">
      <Head title={t("sandbox.terminal.title", { id: data.terminalId })} />
      <h1>{t("sandbox.terminal.title", { id: data.terminalId })}</h1>
      <p class="sandbox-notice">{t("sandbox.terminal.notice")}</p>
      {data.decided && <p role="status">{t("sandbox.terminal.decided", { status: data.decided })}</p>}
      {data.waiting.length === 0 && <p>{t("sandbox.terminal.none")}</p>}
      {data.waiting.map((sale) => (
        <section class="sandbox-sale" key={sale.ref}>
          <h2>
            {t("sandbox.terminal.sale", {
              amount: formatMoney(sale.amount, sale.currency, lang),
              shop: String(sale.data.shopNumber ?? ""),
            })}
          </h2>
          <form method="post">
            <input type="hidden" name="ref" value={sale.ref} />
            <button type="submit" name="action" value="approve" class="button button-primary">
              {t("sandbox.terminal.approve")}
            </button>
          </form>
          <form method="post">
            <input type="hidden" name="ref" value={sale.ref} />
            <label for={`code-${sale.ref}`}>{t("sandbox.terminal.declineWith")}</label>
            <select id={`code-${sale.ref}`} name="code">
              {DECLINE_CODES.map((c) => <option value={c} key={c}>{c}</option>)}
            </select>
            <button type="submit" name="action" value="decline" class="button">
              {t("sandbox.terminal.decline")}
            </button>
          </form>
        </section>
      ))}
      <p>
        <a href={`/sandbox/terminal/${encodeURIComponent(data.terminalId)}`}>
          {t("sandbox.terminal.refresh")}
        </a>
      </p>
    </main>
  );
}
