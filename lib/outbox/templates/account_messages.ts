/**
 * The donor portal's messages (issue 15): the one-time sign-in link. Its token is made again here
 * from the link's id (`lib/donor_portal/sign_in.ts`), so the outbox never holds a usable token.
 *
 * @module
 */
import { SIGN_IN_TTL_MS, signInToken, signInUrl } from "@/lib/donor_portal/mod.ts";
import { donorFrame, type KindRenderer, recipientDonor, rendered } from "./render.ts";

/** A sign-in link to the donor portal, valid 30 minutes from the request. */
export const renderSignInLink: KindRenderer<"sign-in-link"> = async (message, env) => {
  const donor = await recipientDonor(message, env);
  if (!donor) return null;
  const { t } = env;
  const token = await signInToken(env.signInKey, message.data.signInId);
  return rendered(env, [donor.email], {
    ...donorFrame(env, donor, { byName: false }),
    subject: t("account.email.subject", { museum: env.museum }),
    heading: t("account.email.heading"),
    paragraphs: [t("account.email.body", { minutes: SIGN_IN_TTL_MS / 60_000 })],
    actions: [{ label: t("account.email.button"), url: signInUrl(env.publicUrl, env.lang, token) }],
    after: [t("account.email.ignore")],
  });
};
