import { useState } from "preact/hooks";
import { IMAGE_LIMITS, type MuseumImage, museumImageUrl, type MuseumSettings } from "@/lib/shared/museum.ts";
import { type ApiClient, ApiError } from "@/islands/shared/admin_api.ts";
import type { Translate } from "@/islands/shared/texts.ts";

/** What an image field needs. */
export interface MuseumImageFieldProps {
  slot: "logo" | "hero-image";
  /** The image as stored now, if any. */
  image: MuseumImage | undefined;
  /** The settings' version an upload is made over. */
  version: number;
  api: ApiClient;
  t: Translate;
  /** Called with the settings the server stored (their new version and image). */
  onSaved(settings: MuseumSettings): void;
  /** Called when the server says someone saved the settings meanwhile. */
  onStale(): void;
}

/**
 * One uploadable image of the museum editor (issue 27): the museum's logo (SVG or PNG) or the hero's
 * image (PNG, JPEG, WebP), at most 200 KB. A real multipart form (`PUT` through the session's API
 * client, which a form without script cannot send: the back office's session lives in the browser),
 * its preview, and a button removing it. A refused file is told in the page's language beside the
 * field.
 */
export function MuseumImageField(props: MuseumImageFieldProps) {
  const { t, slot } = props;
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);
  const id = `museum-${slot}`;
  const what = slot === "logo" ? "logo" : "heroImage";

  async function send(init: RequestInit, path: string) {
    setBusy(true);
    setError("");
    setNotice("");
    try {
      const saved = await props.api.request<MuseumSettings>(path, init);
      props.onSaved(saved);
      setNotice(t(init.method === "DELETE" ? "museumEditor.imageRemoved" : "museumEditor.imageSaved"));
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) props.onStale();
      else if (e instanceof ApiError && (e.status === 400 || e.status === 413)) {
        // The refusals' words load when one comes (most uploads are accepted).
        const { imageFault } = await import("./museum_faults.ts");
        setError(imageFault(e.status, e.body?.errors?.[0]?.message, t));
      } else setError(t("museumEditor.imageErrors.other", IMAGE_LIMITS));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      class="museum-image"
      method="post"
      encType="multipart/form-data"
      action={`/api/settings/museum/${slot}`}
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        const body = new FormData(e.currentTarget);
        body.set("version", String(props.version));
        send({ method: "PUT", body }, `/api/settings/museum/${slot}`);
      }}
    >
      <h4 id={`${id}-title`}>{t(`museumEditor.${what}`)}</h4>
      {props.image
        ? (
          <img
            class="museum-image-preview"
            src={museumImageUrl(props.image)}
            alt={t("museumEditor.current")}
          />
        )
        : <p>{t("museumEditor.noImage")}</p>}
      <input type="hidden" name="version" value={String(props.version)} />
      <div class="field">
        <label for={`${id}-file`}>{t("museumEditor.chooseFile")}</label>
        <input
          id={`${id}-file`}
          type="file"
          name="file"
          required
          accept={slot === "logo" ? "image/svg+xml,image/png,.svg,.png" : "image/png,image/jpeg,image/webp"}
          aria-describedby={`${id}-help${error ? ` ${id}-error` : ""}`}
          aria-invalid={error ? "true" : undefined}
        />
        <p class="field-help" id={`${id}-help`}>
          {t(`museumEditor.${what}Help`, { kb: IMAGE_LIMITS.kilobytes, pixels: IMAGE_LIMITS.pixels })}
        </p>
        {error && <p class="field-error" id={`${id}-error`}>{error}</p>}
      </div>
      <p class="staff-notice" role="status">{notice}</p>
      <div class="museum-actions">
        <button type="submit" class="button" disabled={busy}>{t(`museumEditor.upload`)}</button>
        {props.image && (
          <button
            type="button"
            class="button button-outline"
            disabled={busy}
            onClick={() =>
              send({ method: "DELETE" }, `/api/settings/museum/${slot}?version=${props.version}`)}
          >
            {t(`museumEditor.remove${slot === "logo" ? "Logo" : "HeroImage"}`)}
          </button>
        )}
      </div>
    </form>
  );
}
