import type { TFunction } from "@/lib/core/i18n.ts";
import { translator } from "@/lib/core/i18n.ts";
import {
  GIFT_REMINDER_CHOICES,
  type GiftFields,
  MAX_GIFT_MESSAGE,
  MAX_GIFT_NAME,
} from "@/lib/shared/gift_membership.ts";
import { LANGUAGES } from "@/lib/shared/languages.ts";

/** The gift part of the donation form as entered: the box, the fields, their problems (locale keys). */
export interface GiftPart {
  on: boolean;
  fields: GiftFields;
  errors: Partial<Record<keyof GiftFields, string>>;
}

/** A fresh page's gift part: off, reminders to the recipient, the page's language. */
export const emptyGiftPart = (lang: string): GiftPart => ({
  on: false,
  fields: {
    giftName: "",
    giftEmail: "",
    giftDate: "",
    giftMessage: "",
    giftReminders: "recipient",
    giftLanguage: lang,
  },
  errors: {},
});

const LABELS = {
  giftName: "giftMembership.recipientName",
  giftEmail: "giftMembership.recipientEmail",
  giftDate: "giftMembership.date",
};
const REMINDER_LABELS = { giver: "remindersGiver", recipient: "remindersRecipient", both: "remindersBoth" };

/**
 * "This is a gift for someone else" (issue 28, item 3): a box that shows the recipient's fields
 * with CSS alone (`.gift-part:has(#gift-toggle:checked)`), so it ships no JavaScript; the page's
 * form posts them, and the payment island reads them from the form when it submits.
 */
export function GiftMembershipFields(props: { t: TFunction; part: GiftPart }) {
  const { t, part } = props;
  const { fields, errors } = part;
  const described = (name: keyof GiftFields, hint: boolean) =>
    [hint && `${name}-hint`, errors[name] && `${name}-error`].filter(Boolean).join(" ") || undefined;
  const error = (name: keyof GiftFields) =>
    errors[name] && <p class="field-error" id={`${name}-error`}>{t(errors[name]!)}</p>;
  const text = (
    name: "giftName" | "giftEmail" | "giftDate",
    type: "text" | "email" | "date",
    extra: Record<string, unknown>,
  ) => (
    <div class="field">
      <label for={name}>{t(LABELS[name])}</label>
      <input
        id={name}
        name={name}
        type={type as "text"}
        value={fields[name]}
        aria-invalid={errors[name] ? "true" : undefined}
        aria-describedby={described(name, name === "giftDate")}
        {...extra}
      />
      {name === "giftDate" && <p class="field-hint" id="giftDate-hint">{t("giftMembership.dateHint")}</p>}
      {error(name)}
    </div>
  );
  return (
    <div class="gift-part">
      <div class="checkbox-field">
        <input
          id="gift-toggle"
          name="gift"
          type="checkbox"
          value="on"
          checked={part.on}
          aria-describedby="gift-hint"
        />
        <label for="gift-toggle">{t("giftMembership.choice")}</label>
      </div>
      <p class="field-hint" id="gift-hint">{t("giftMembership.choiceHint")}</p>
      <fieldset class="gift-fields">
        <legend>{t("giftMembership.legend")}</legend>
        <div class="gift-grid">
          {text("giftName", "text", {
            maxLength: MAX_GIFT_NAME,
            autoComplete: "off",
            "aria-required": "true",
          })}
          {text("giftEmail", "email", { maxLength: 254, autoComplete: "off", "aria-required": "true" })}
          {text("giftDate", "date", {})}
          <div class="field">
            <label for="giftMessage">{t("giftMembership.message")}</label>
            <textarea
              id="giftMessage"
              name="giftMessage"
              rows={3}
              maxLength={MAX_GIFT_MESSAGE}
              aria-invalid={errors.giftMessage ? "true" : undefined}
              aria-describedby={described("giftMessage", true)}
            >
              {fields.giftMessage}
            </textarea>
            <p class="field-hint" id="giftMessage-hint">{t("giftMembership.messageHint")}</p>
            {error("giftMessage")}
          </div>
          <fieldset class="gift-reminders">
            <legend>{t("giftMembership.reminders")}</legend>
            {GIFT_REMINDER_CHOICES.map((choice) => (
              <label key={choice}>
                <input
                  type="radio"
                  name="giftReminders"
                  value={choice}
                  checked={fields.giftReminders === choice}
                />{" "}
                {t(`giftMembership.${REMINDER_LABELS[choice]}`)}
              </label>
            ))}
          </fieldset>
          <div class="field">
            <label for="giftLanguage">{t("giftMembership.language")}</label>
            <select id="giftLanguage" name="giftLanguage">
              {LANGUAGES.map((l) => (
                <option key={l} value={l} lang={l} selected={fields.giftLanguage === l}>
                  {translator(l)("languageName")}
                </option>
              ))}
            </select>
          </div>
        </div>
      </fieldset>
    </div>
  );
}
