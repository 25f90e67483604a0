import { OWNERS, type RouteRoles } from "@/lib/staff/roles.ts";
import { changeMuseumImage, type MuseumImageSlot } from "@/lib/museum/images.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { HttpError } from "@/lib/http/validation.ts";

export { museumImageDocs as docs } from "@/lib/museum/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { PUT: OWNERS, DELETE: OWNERS } satisfies RouteRoles;

/** The slot named by the path, or a 404. */
function slotOf(name: string | undefined): MuseumImageSlot {
  if (name === "logo" || name === "hero-image") return name;
  throw new HttpError(404, "Not found: the images are /logo and /hero-image");
}

/** The settings' version a change was made from, or a 400. */
function versionOf(value: unknown): number {
  const version = typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(version)) {
    throw new HttpError(400, "version must be the settings' version (a whole number)", [
      { path: "version", message: "must be a whole number" },
    ]);
  }
  return version;
}

/**
 * `PUT /api/settings/museum/{logo|hero-image}`: a multipart form of `version` and `file`;
 * `DELETE …?version=`: removes the image (owners; `lib/museum/images.ts`).
 */
export const handler = withRoles(roles, {
  async PUT(req, ctx) {
    const slot = slotOf(ctx.params.image);
    if (!(req.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
      throw new HttpError(415, "The body must be multipart/form-data with version and file");
    }
    let form: FormData;
    try {
      form = await req.formData();
    } catch {
      throw new HttpError(400, "The multipart body could not be read");
    }
    const version = versionOf(form.get("version"));
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) {
      throw new HttpError(400, "Choose a file to upload", [{ path: "file", message: "the file is empty" }]);
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const saved = await changeMuseumImage(ctx.state.services.store, signedInActor(ctx), slot, version, {
      type: file.type,
      name: file.name,
      bytes,
    });
    return Response.json(saved, { headers: { "cache-control": "no-store" } });
  },
  async DELETE(_req, ctx) {
    const slot = slotOf(ctx.params.image);
    const version = versionOf(ctx.url.searchParams.get("version"));
    const saved = await changeMuseumImage(ctx.state.services.store, signedInActor(ctx), slot, version, null);
    return Response.json(saved, { headers: { "cache-control": "no-store" } });
  },
});
