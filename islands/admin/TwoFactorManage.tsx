import { useState } from "preact/hooks";
import { listFailure, type Message } from "@/islands/shared/account_forms.ts";
import { type ApiClient, ApiError } from "@/islands/shared/admin_api.ts";
import { messageText, type Translate } from "@/islands/shared/texts.ts";
import { CodeInput } from "./CodeInput.tsx";

const RECOVERY_CODES = "/api/auth/admin/two-factor/recovery-codes";
const TURN_OFF = "/api/auth/admin/two-factor/disable";

/** A failed call's message: a wrong code and too many attempts in the page's words. */
function failureOf(error: unknown): Message {
  if (error instanceof ApiError && error.status === 400) return { key: "twoFactor.wrongCurrentCode" };
  if (error instanceof ApiError && error.status === 429) {
    return {
      key: "apiErrors.tooManyAttempts",
      params: { minutes: Math.ceil((error.retryAfter ?? 900) / 60) },
    };
  }
  if (error instanceof ApiError && error.status === 409) return { key: "twoFactor.cannotTurnOff" };
  return listFailure(error);
}

/**
 * An enrolled staff member's own two-factor (issue 16), on the two-factor page: a current code
 * from the app gets 10 new recovery codes (the old ones stop working) or, while the museum does
 * not require two-factor, turns it off. The server checks the code and throttles wrong ones.
 */
export function TwoFactorManage(
  props: {
    api: ApiClient;
    t: Translate;
    /** Whether two-factor is required for everyone (then it cannot be turned off). */
    required: boolean;
    /** The new recovery codes, to show once. */
    onCodes(codes: string[]): void;
    onTurnedOff(): void;
  },
) {
  const { t } = props;
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Message | null>(null);

  async function run(path: string) {
    if (busy) return;
    if (!code.trim()) return setFailure({ key: "twoFactor.codeRequired" });
    setBusy(true);
    setFailure(null);
    try {
      const init = { method: "POST", body: JSON.stringify({ code: code.trim() }) };
      if (path === RECOVERY_CODES) {
        props.onCodes((await props.api.request<{ recoveryCodes: string[] }>(path, init)).recoveryCodes);
      } else {
        await props.api.request(path, init);
        props.onTurnedOff();
      }
    } catch (error) {
      setFailure(failureOf(error));
    }
    setCode("");
    setBusy(false);
  }

  return (
    <form
      class="account-form two-factor-manage"
      method="post"
      noValidate
      aria-labelledby="two-factor-manage-title"
      onSubmit={(e) => {
        e.preventDefault();
        run(RECOVERY_CODES);
      }}
    >
      <h2 id="two-factor-manage-title">{t("twoFactor.manageTitle")}</h2>
      <p>{t("twoFactor.manageIntro")}</p>
      <div class="field">
        <label for="two-factor-manage-code">{t("twoFactor.codeLabel")}</label>
        <CodeInput
          id="two-factor-manage-code"
          describedBy="two-factor-manage-hint"
          value={code}
          onInput={setCode}
        />
        <span id="two-factor-manage-hint" class="field-hint">{t("twoFactor.manageHint")}</span>
      </div>
      <div class="approval-actions">
        <button type="submit" class="button button-primary" disabled={busy}>{t("twoFactor.newCodes")}</button>
        {!props.required && (
          <button
            type="button"
            class="button button-outline"
            disabled={busy}
            onClick={() => run(TURN_OFF)}
          >
            {t("twoFactor.turnOff")}
          </button>
        )}
      </div>
      {props.required && <p>{t("twoFactor.cannotTurnOff")}</p>}
      <div class="form-alert" role="alert">
        {failure && <p>{messageText(t, failure)}</p>}
      </div>
    </form>
  );
}
