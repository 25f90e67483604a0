import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { listFailure } from "@/islands/shared/account_forms.ts";
import type { ApiClient } from "@/islands/shared/admin_api.ts";
import { pace } from "@/islands/shared/pace.ts";
import { messageText, type Translate } from "@/islands/shared/texts.ts";
import { dateFormats } from "@/lib/shared/dates.ts";
import { formatMoney } from "@/lib/shared/money.ts";
import { Approvals } from "./Approvals.tsx";
import {
  type CurrencyTotal,
  type Overview as OverviewAnswer,
  type OverviewPart,
  partsFor,
  type PeriodTotals,
} from "@/lib/shared/overview.ts";

/** The figures in the viewer's language: counts, money, days and times (the museum's clock, with its zone). */
function formats(lang: string, timeZone: string) {
  const count = new Intl.NumberFormat(lang);
  const dates = dateFormats(lang, timeZone);
  return {
    count: (n: number, capped = false) => `${count.format(n)}${capped ? "+" : ""}`,
    money: (t: CurrencyTotal) => formatMoney(t.amount, t.currency, lang),
    /** A museum day `YYYY-MM-DD`, short ("Oct 29"). */
    day: (d: string) => dates.day(d, { day: "numeric", month: "short" }) ?? d,
    longDay: (d: string) => dates.day(d, { weekday: "long", day: "numeric", month: "long" }) ?? d,
    when: (iso: string) => dates.dateTime(iso) ?? iso,
  };
}

type Formats = ReturnType<typeof formats>;

/**
 * One card: a big figure and a line of words, the whole a link to the list behind it; `more`
 * (details, or further links) below. `calm` when nothing waits (no accent).
 */
function Card(
  props: {
    part: string;
    href: string;
    figure: ComponentChildren;
    words: string;
    calm?: boolean;
    more?: ComponentChildren;
  },
) {
  return (
    <li class={`overview-card${props.calm ? " overview-calm" : ""}`} data-part={props.part}>
      <a class="overview-main" href={props.href}>
        <span class="overview-figure">{props.figure}</span>
        <span class="overview-words">{props.words}</span>
      </a>
      {props.more}
    </li>
  );
}

/** Amounts per currency, each on its own line (none: a zero). */
const Amounts = (props: { totals: CurrencyTotal[]; f: Formats }) =>
  props.totals.length === 0
    ? <span dir="ltr">{props.f.count(0)}</span>
    : <>{props.totals.map((c) => <span key={c.currency}>{props.f.money(c)}</span>)}</>;

/** "₪1,200.00 · $300.00 (12)": a period's sums on one line. */
const sumsLine = (totals: CurrencyTotal[], f: Formats) =>
  totals.length === 0
    ? f.count(0)
    : `${totals.map(f.money).join(" · ")} (${f.count(totals.reduce((n, c) => n + c.count, 0))})`;

/** A smaller line that links to its own list, with its sums. */
const PeriodLink = (props: { period: PeriodTotals; label: string; f: Formats }) => (
  <li>
    <a href={props.period.href}>{props.label}</a>:{" "}
    <span class="overview-sums">{sumsLine(props.period.totals, props.f)}</span>
  </li>
);

/**
 * The back office's overview (issue 26): "what needs me today". Cards with a big figure and a line
 * of words, each a link to the filtered list behind it: gifts today and this month against last
 * month, monthly charges failing and when they are tried again, refunds pending, email failing,
 * accounts waiting for approval, kiosks not seen for a day; only the parts `role` sees (the API
 * answers no others). Loads `GET /api/overview` once `ready`; until then holds each card's room. An
 * owner also finds the registrations waiting for approval below the cards, to decide on at once.
 */
export function Overview(
  props: { api: ApiClient; t: Translate; lang: string; ready: boolean; role: string },
) {
  const { api, t, lang, ready } = props;
  const [overview, setOverview] = useState<OverviewAnswer | null>(null);
  const [failure, setFailure] = useState("");

  // Read again after an approval or rejection here (the card's count changes).
  const [reads, setReads] = useState(0);

  useEffect(() => {
    if (!ready) return;
    api.request<OverviewAnswer>(`/api/overview?lang=${encodeURIComponent(lang)}`)
      .then((answer) => pace(() => setOverview(answer)))
      .catch((error) => setFailure(t("transactions.errorPrefix") + messageText(t, listFailure(error))));
  }, [ready, reads]);

  const f = overview && formats(lang, overview.timeZone);
  const cards = (part: OverviewPart) => {
    if (!overview || !f) {
      // The card's room while the figures load (the gifts are two cards).
      const waiting = (key: string) => (
        <li key={key} class="overview-card overview-waiting" aria-hidden="true" />
      );
      return part === "gifts" ? [waiting("today"), waiting("month")] : waiting(part);
    }
    const o = overview;
    switch (part) {
      case "gifts": {
        const g = o.gifts!;
        const count = (p: PeriodTotals) => p.totals.reduce((n, c) => n + c.count, 0);
        return [
          <Card
            key="today"
            part="gifts-today"
            href={g.today.href}
            figure={<Amounts totals={g.today.totals} f={f} />}
            words={t("overview.giftsToday", { count: f.count(count(g.today)) })}
          />,
          <Card
            key="month"
            part="gifts-month"
            href={g.thisMonth.href}
            figure={<Amounts totals={g.thisMonth.totals} f={f} />}
            words={t("overview.giftsThisMonth", { count: f.count(count(g.thisMonth)) })}
            more={
              <ul class="overview-more">
                <PeriodLink
                  period={g.lastMonthSameDays}
                  f={f}
                  label={t("overview.sameDaysLastMonth", {
                    from: f.day(g.lastMonthSameDays.from),
                    to: f.day(g.lastMonthSameDays.to),
                  })}
                />
                <PeriodLink period={g.lastMonth} f={f} label={t("overview.wholeLastMonth")} />
              </ul>
            }
          />,
        ];
      }
      case "monthlyFailing": {
        const m = o.monthlyFailing!;
        return (
          <Card
            key={part}
            part={part}
            href={m.href}
            calm={m.count === 0}
            figure={f.count(m.count, m.capped)}
            words={t("overview.monthlyFailing")}
            more={m.next.length > 0 && (
              <ul class="overview-more">
                {m.next.map((gift, i) => (
                  <li key={i}>
                    {t("overview.nextTry", {
                      amount: f.money({ ...gift, count: 1 }),
                      date: f.when(gift.nextTryAt),
                      declined: f.count(gift.failedAttempts),
                    })}
                  </li>
                ))}
              </ul>
            )}
          />
        );
      }
      case "refunds": {
        const r = o.refunds!;
        return (
          <Card
            key={part}
            part={part}
            href={r.href}
            calm={r.count === 0}
            figure={f.count(r.count, r.capped)}
            words={t("overview.refundsPending")}
            more={r.count > 0 && (
              <p class="overview-more">
                {t("overview.refundsSum", { amounts: r.pending.map(f.money).join(" · ") })}
              </p>
            )}
          />
        );
      }
      case "email": {
        const e = o.email!;
        return (
          <Card
            key={part}
            part={part}
            href={e.href}
            calm={e.count === 0}
            figure={f.count(e.count, e.capped)}
            words={t("overview.emailFailing", { since: f.day(e.since) })}
            more={e.count > 0 && (
              <p class="overview-more">
                {t("overview.emailBreakdown", { failed: f.count(e.failed), retrying: f.count(e.retrying) })}
              </p>
            )}
          />
        );
      }
      case "approvals": {
        const a = o.approvals!;
        return (
          <Card
            key={part}
            part={part}
            href={a.href}
            calm={a.count === 0}
            figure={f.count(a.count)}
            words={t("overview.approvals")}
          />
        );
      }
      case "kiosks": {
        const k = o.kiosks!;
        return (
          <Card
            key={part}
            part={part}
            href={k.href}
            calm={k.count === 0}
            figure={f.count(k.count)}
            words={t("overview.kiosksUnseen")}
            more={k.devices.length > 0 && (
              <ul class="overview-more">
                {k.devices.map((d, i) => (
                  <li key={i}>
                    <bdi>{d.name}</bdi>: {d.lastSeenAt
                      ? t("overview.lastSeen", { date: f.when(d.lastSeenAt) })
                      : t("overview.neverSeen")}
                  </li>
                ))}
              </ul>
            )}
          />
        );
      }
    }
  };

  return (
    <section class="overview" aria-labelledby="overview-title" data-loaded={overview ? "" : undefined}>
      <h2 id="overview-title">{t("overview.title")}</h2>
      <p class="overview-day">
        {overview && f
          ? t("overview.today", { day: f.longDay(overview.today), zone: overview.timeZone })
          : <span class="visually-hidden" role="status">{t("overview.loading")}</span>}
      </p>
      {failure && <p class="form-alert" role="alert">{failure}</p>}
      <ul class="overview-cards">
        {!failure && partsFor(props.role).map((part) => cards(part))}
      </ul>
      {/* An owner decides on waiting registrations here too (shown only when someone waits). */}
      {props.role === "owner" && (
        <Approvals
          api={api}
          t={t}
          ready={ready}
          onDecided={() => setReads((n) => n + 1)}
        />
      )}
    </section>
  );
}
