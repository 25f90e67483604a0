import { useEffect, useState } from "preact/hooks";
import type { MuseumImage, MuseumSettings } from "@/lib/shared/museum.ts";
import { listFailure } from "@/islands/shared/account_forms.ts";
import { ApiError } from "@/islands/shared/admin_api.ts";
import { messageText } from "@/islands/shared/texts.ts";
import type { SectionView } from "./AdminShell.tsx";
import { MuseumImageField } from "./MuseumImageField.tsx";
import {
  changeOf,
  type FormLimits,
  formOf,
  type LevelForm,
  type MuseumForm,
  newLevel,
} from "./museum_form.ts";

/** A language of the editor: its code and its own name. */
export interface EditorLanguage {
  code: string;
  name: string;
}

/** What the editor needs besides the section's view. */
export interface MuseumEditorProps {
  view: SectionView;
  languages: EditorLanguage[];
  limits: FormLimits;
}

type Lang = keyof MuseumForm["name"];

/**
 * The museum editor (issue 27, item 1), in the settings section (owners): the museum's name in
 * every language and its membership levels (name and benefits per language, prices, term,
 * cardholders, the benefits' value, offered monthly), added, removed and reordered, saved whole over
 * the version read (`PUT /api/settings/museum`). The server checks everything; each field it
 * refuses is marked beside the field in the page's language, and a save over a version someone else
 * moved on says so and offers to reload.
 */
export function MuseumEditor(props: MuseumEditorProps) {
  const { api, t, ready } = props.view;
  const [form, setForm] = useState<MuseumForm | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState("");
  const [stale, setStale] = useState(false);
  const [busy, setBusy] = useState(false);
  const [images, setImages] = useState<{ logo?: MuseumImage; hero?: MuseumImage }>({});
  const imagesOf = (settings: MuseumSettings) => ({
    logo: settings.identity.logo,
    hero: settings.hero?.image,
  });

  const load = () =>
    api.request<MuseumSettings>("/api/settings/museum").then((settings) => {
      setForm(formOf(settings));
      setImages(imagesOf(settings));
      setErrors({});
      setStale(false);
    }).catch((error) => setNotice(t("transactions.errorPrefix") + messageText(t, listFailure(error))));
  useEffect(() => {
    if (ready) load();
  }, [ready]);

  const change = (next: (form: MuseumForm) => MuseumForm) => setForm((f) => f && next(f));
  const setLevel = (i: number, next: (level: LevelForm) => LevelForm) =>
    change((f) => ({ ...f, levels: f.levels.map((l, j) => j === i ? next(l) : l) }));
  const move = (i: number, by: number) =>
    change((f) => {
      const levels = [...f.levels];
      [levels[i], levels[i + by]] = [levels[i + by], levels[i]];
      return { ...f, levels };
    });

  async function save(e: Event) {
    e.preventDefault();
    if (!form) return;
    setBusy(true);
    setNotice("");
    try {
      const saved = await api.request<MuseumSettings>("/api/settings/museum", {
        method: "PUT",
        body: JSON.stringify(changeOf(form)),
      });
      setForm(formOf(saved));
      setImages(imagesOf(saved));
      setErrors({});
      setNotice(t("museumEditor.saved"));
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setStale(true);
        setNotice(t("museumEditor.changedMeanwhile"));
      } else if (error instanceof ApiError && error.status === 400 && error.body?.errors?.length) {
        // The refusals' words load when one comes (most saves are accepted).
        const { fieldErrors } = await import("./museum_faults.ts");
        const found = fieldErrors(error.body.errors, t, props.limits, form.colours);
        setErrors(found);
        setNotice(t("museumEditor.fixFields"));
        requestAnimationFrame(() => document.getElementById(Object.keys(found)[0])?.focus());
      } else setNotice(t("transactions.errorPrefix") + messageText(t, listFailure(error)));
    } finally {
      setBusy(false);
    }
  }

  /** An input with its label and, when the server refused it, its error. */
  const field = (
    id: string,
    label: string,
    value: string,
    set: (value: string) => void,
    extra: { lang?: string; multiline?: boolean; inputMode?: "decimal" | "numeric"; ltr?: boolean } = {},
  ) => (
    <div class="field" key={id}>
      <label for={id}>{label}</label>
      {extra.multiline
        ? (
          <textarea
            id={id}
            lang={extra.lang}
            dir={extra.ltr ? "ltr" : extra.lang ? "auto" : undefined}
            rows={4}
            value={value}
            aria-invalid={errors[id] ? "true" : undefined}
            aria-describedby={errors[id] ? `${id}-error` : undefined}
            onInput={(e) => set(e.currentTarget.value)}
          />
        )
        : (
          <input
            id={id}
            lang={extra.lang}
            dir={extra.ltr ? "ltr" : extra.lang ? "auto" : undefined}
            inputMode={extra.inputMode}
            value={value}
            aria-invalid={errors[id] ? "true" : undefined}
            aria-describedby={errors[id] ? `${id}-error` : undefined}
            onInput={(e) => set(e.currentTarget.value)}
          />
        )}
      {errors[id] && <p class="field-error" id={`${id}-error`}>{errors[id]}</p>}
    </div>
  );

  const levelEditor = (level: LevelForm, i: number, count: number) => {
    const at = `level-${i}`;
    const title = level.name[props.view.lang as Lang] || t("museumEditor.newLevel");
    return (
      <li key={level.key}>
        <fieldset
          class="level-edit"
          id={at}
          tabIndex={-1}
          aria-describedby={errors[at] ? `${at}-error` : undefined}
        >
          <legend>{t("museumEditor.levelTitle", { n: i + 1, name: title })}</legend>
          {errors[at] && <p class="field-error" id={`${at}-error`}>{errors[at]}</p>}
          <div class="level-langs">
            {props.languages.map(({ code, name }) => (
              <div class="level-lang" key={code}>
                {field(
                  `${at}-name-${code}`,
                  t("museumEditor.levelName", { language: name }),
                  level.name[code as Lang],
                  (v) => setLevel(i, (l) => ({ ...l, name: { ...l.name, [code]: v } })),
                  { lang: code },
                )}
                {field(
                  `${at}-benefits-${code}`,
                  t("museumEditor.benefits", { language: name }),
                  level.benefits[code as Lang],
                  (v) => setLevel(i, (l) => ({ ...l, benefits: { ...l.benefits, [code]: v } })),
                  { lang: code, multiline: true },
                )}
              </div>
            ))}
          </div>
          <div class="level-numbers">
            {(["price", "benefitsValue"] as const).flatMap((kind) =>
              (["nis", "dollars"] as const).map((currency) =>
                field(
                  `${at}-${kind}-${currency}`,
                  t(`museumEditor.${kind}.${currency}`),
                  level[kind][currency],
                  (v) => setLevel(i, (l) => ({ ...l, [kind]: { ...l[kind], [currency]: v } })),
                  { inputMode: "decimal" },
                )
              )
            )}
            {field(
              `${at}-termMonths`,
              t("museumEditor.termMonths"),
              level.termMonths,
              (v) => setLevel(i, (l) => ({ ...l, termMonths: v })),
              { inputMode: "numeric" },
            )}
            {field(
              `${at}-cardholders`,
              t("museumEditor.cardholders"),
              level.cardholders,
              (v) => setLevel(i, (l) => ({ ...l, cardholders: v })),
              { inputMode: "numeric" },
            )}
            {field(
              `${at}-guests`,
              t("frontDesk.levelGuests"),
              level.guests,
              (v) => setLevel(i, (l) => ({ ...l, guests: v })),
              { inputMode: "numeric" },
            )}
            {field(
              `${at}-donationShare`,
              t("museumEditor.donationShare"),
              level.donationShare,
              (v) => setLevel(i, (l) => ({ ...l, donationShare: v })),
              { inputMode: "numeric" },
            )}
          </div>
          <label class="level-monthly">
            <input
              type="checkbox"
              checked={level.monthly}
              onChange={(e) => setLevel(i, (l) => ({ ...l, monthly: e.currentTarget.checked }))}
            />{" "}
            {t("museumEditor.monthly")}
          </label>
          <div class="level-actions">
            <button
              type="button"
              class="button button-outline"
              disabled={i === 0}
              onClick={() => move(i, -1)}
            >
              {t("museumEditor.moveUp", { name: title })}
            </button>
            <button
              type="button"
              class="button button-outline"
              disabled={i === count - 1}
              onClick={() => move(i, 1)}
            >
              {t("museumEditor.moveDown", { name: title })}
            </button>
            <button
              type="button"
              class="button button-outline"
              onClick={() => change((f) => ({ ...f, levels: f.levels.filter((_, j) => j !== i) }))}
            >
              {t("museumEditor.remove", { name: title })}
            </button>
          </div>
        </fieldset>
      </li>
    );
  };

  /** An image's field: a save keeps what is typed in the form and moves it to the new version. */
  const imageField = (slot: "logo" | "hero-image", image: MuseumImage | undefined) =>
    form && (
      <MuseumImageField
        slot={slot}
        image={image}
        version={form.version}
        api={api}
        t={t}
        onSaved={(saved) => {
          change((f) => ({ ...f, version: saved.version }));
          setImages(imagesOf(saved));
        }}
        onStale={() => {
          setStale(true);
          setNotice(t("museumEditor.changedMeanwhile"));
        }}
      />
    );

  const heroFields = (f: MuseumForm) => (
    <fieldset class="museum-hero">
      <legend>{t("museumHero.legend")}</legend>
      <p>{t("museumHero.help")}</p>
      <div class="level-langs">
        {props.languages.map(({ code, name }) => (
          <div class="level-lang" key={code}>
            {(["title", "text", "imageAlt"] as const).map((part) =>
              field(
                `hero-${part}-${code}`,
                t(`museumHero.${part}`, { language: name }),
                f.hero[part][code as Lang],
                (v) => change((g) => ({ ...g, hero: { ...g.hero, [part]: { ...g.hero[part], [code]: v } } })),
                { lang: code, multiline: part === "text" },
              )
            )}
          </div>
        ))}
      </div>
    </fieldset>
  );

  return (
    <>
      <form
        class="museum-editor"
        aria-labelledby="museum-editor-title"
        data-loaded={form ? "" : undefined}
        data-version={form?.version}
        noValidate
        onSubmit={save}
      >
        <h2 id="museum-editor-title">{t("museumEditor.title")}</h2>
        <p>{t("museumEditor.intro")}</p>
        <p class="staff-notice" role="status">{notice}</p>
        {stale && (
          <button type="button" class="button button-outline museum-reload" onClick={load}>
            {t("museumEditor.reload")}
          </button>
        )}
        {form && (
          <>
            <fieldset class="museum-names">
              <legend>{t("museumEditor.museumName")}</legend>
              {props.languages.map(({ code, name }) =>
                field(
                  `museum-name-${code}`,
                  name,
                  form.name[code as Lang],
                  (v) => change((f) => ({ ...f, name: { ...f.name, [code]: v } })),
                  { lang: code },
                )
              )}
            </fieldset>
            <fieldset class="museum-colours" aria-describedby="museum-colours-help">
              <legend>{t("museumEditor.colours")}</legend>
              <p id="museum-colours-help">{t("museumEditor.coloursHelp")}</p>
              {(["brand", "accent"] as const).map((which) => (
                <div class="museum-colour" key={which}>
                  {field(
                    `museum-colour-${which}`,
                    t(`museumEditor.${which}`),
                    form.colours[which],
                    (v) => change((f) => ({ ...f, colours: { ...f.colours, [which]: v } })),
                    // A hex colour reads left to right in Hebrew too (#b5531c, not b5531c#).
                    { ltr: true },
                  )}
                  {/* A swatch of the colour (no text: the field's error says when text on it is unreadable). */}
                  <span
                    class="colour-sample"
                    aria-hidden="true"
                    style={{ background: form.colours[which] }}
                  />
                </div>
              ))}
            </fieldset>
            {heroFields(form)}
            <h3 id="levels-title">{t("museumEditor.levels")}</h3>
            {errors.levels && <p class="field-error" id="levels-error">{errors.levels}</p>}
            <ol class="level-list" aria-labelledby="levels-title">
              {form.levels.map((level, i) => levelEditor(level, i, form.levels.length))}
            </ol>
            <div class="museum-actions">
              <button
                type="button"
                class="button button-outline"
                onClick={() => change((f) => ({ ...f, levels: [...f.levels, newLevel()] }))}
              >
                {t("museumEditor.addLevel")}
              </button>
              <button type="submit" class="button" disabled={busy}>{t("museumEditor.save")}</button>
            </div>
          </>
        )}
      </form>
      {form && (
        <section class="museum-images" aria-labelledby="museum-images-title">
          <h3 id="museum-images-title">{t("museumEditor.images")}</h3>
          {imageField("logo", images.logo)}
          {imageField("hero-image", images.hero)}
        </section>
      )}
    </>
  );
}
