import type { TFunction } from "@/lib/core/i18n.ts";

/**
 * The welcome hero: the museum's name, headline, description, a 'Donate now' link to the payment
 * section (an in-page anchor, so it works without JavaScript) and, when configured, 'Watch Video'.
 */
export function Hero(props: { t: TFunction; museumName: string; videoUrl?: string }) {
  const { t } = props;
  return (
    <section class="hero" aria-labelledby="hero-title">
      <p class="hero-kicker">{props.museumName}</p>
      <h1 id="hero-title">{t("welcome.headline")}</h1>
      <p class="hero-text">{t("welcome.description")}</p>
      <div class="hero-actions">
        <a class="button button-primary" href="#donate">{t("welcome.donateNow")}</a>
        {props.videoUrl && (
          <a class="button button-secondary" href={props.videoUrl} rel="noopener" target="_blank">
            {t("welcome.watchVideo")}
          </a>
        )}
      </div>
    </section>
  );
}
