import type { TFunction } from "@/lib/core/i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { museumImageUrl, type MuseumSettings } from "@/lib/shared/museum.ts";

/**
 * The welcome hero: the museum's name, the hero's title and text (the owners' per language, else
 * the locale's), a 'Donate now' link to the payment section (an in-page anchor, so it works without
 * JavaScript), 'Watch Video' when configured, and the hero's image when an owner uploaded one.
 */
export function Hero(
  props: { t: TFunction; lang: Lang; museumName: string; museum?: MuseumSettings; videoUrl?: string },
) {
  const { t, lang } = props;
  const hero = props.museum?.hero;
  const image = hero?.image;
  return (
    <section class={image ? "hero hero-with-image" : "hero"} aria-labelledby="hero-title">
      <div class="hero-body">
        <p class="hero-kicker">{props.museumName}</p>
        <h1 id="hero-title">{hero?.title[lang] || t("welcome.headline")}</h1>
        <p class="hero-text">{hero ? hero.text[lang] : t("welcome.description")}</p>
        <div class="hero-actions">
          <a class="button button-primary" href="#donate">{t("welcome.donateNow")}</a>
          {props.videoUrl && (
            <a class="button button-secondary" href={props.videoUrl} rel="noopener" target="_blank">
              {t("welcome.watchVideo")}
            </a>
          )}
        </div>
      </div>
      {image && (
        <img
          class="hero-image"
          src={museumImageUrl(image)}
          alt={hero.imageAlt[lang]}
          width={image.width}
          height={image.height}
          decoding="async"
        />
      )}
    </section>
  );
}
