import { useRef, useState } from "preact/hooks";
import { ApiError } from "./api_error.ts";
import type { SignInCalls } from "./admin_sign_in.ts";
import type { Message } from "./account_forms.ts";
import { authFailure } from "./sign_in_forms.ts";
import { messageText, type Translate } from "./texts.ts";

/**
 * The code step of a sign-in with two-factor (issue 16), in the sign-in form's place: a code from
 * the authenticator app or a recovery code, traded with the password step's pending token for the
 * session. A wrong code says so (and counts toward the login throttle on the server); an expired
 * step offers to sign in again.
 */
export function SecondFactorStep(
  props: {
    api: Pick<SignInCalls, "verifySecondFactor">;
    pendingToken: string;
    t: Translate;
    onSignedIn: () => void;
    onRestart: () => void;
  },
) {
  const { t } = props;
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<Message | null>(null);
  const [expired, setExpired] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  async function submit(event: Event) {
    event.preventDefault();
    if (busy) return;
    if (!code.trim()) {
      setProblem("twoFactor.codeRequired");
      input.current?.focus();
      return;
    }
    setBusy(true);
    setProblem(null);
    setFailure(null);
    try {
      await props.api.verifySecondFactor(props.pendingToken, code.trim());
      props.onSignedIn();
    } catch (error) {
      const path = error instanceof ApiError ? error.body?.errors?.[0]?.path : undefined;
      if (error instanceof ApiError && error.status === 401 && path === "pendingToken") setExpired(true);
      else if (error instanceof ApiError && (error.status === 401 || error.status === 400)) {
        setFailure({ key: "twoFactor.wrongCode" });
      } else setFailure(authFailure(error, "login"));
      setCode("");
      setBusy(false);
      input.current?.focus();
    }
  }

  return (
    <form
      class="account-form"
      method="post"
      noValidate
      onSubmit={submit}
      aria-labelledby="second-factor-title"
    >
      <h2 id="second-factor-title">{t("twoFactor.stepTitle")}</h2>
      <p>{t("twoFactor.stepIntro")}</p>
      <div class="field">
        <label for="second-factor-code">{t("twoFactor.codeLabel")}</label>
        <input
          ref={input}
          id="second-factor-code"
          name="code"
          type="text"
          inputMode="text"
          autoComplete="one-time-code"
          autoFocus
          dir="ltr"
          required
          maxLength={20}
          value={code}
          aria-invalid={problem ? "true" : undefined}
          aria-describedby={problem ? "second-factor-code-error" : "second-factor-code-hint"}
          onInput={(e) => setCode((e.target as HTMLInputElement).value)}
        />
        <p class="field-hint" id="second-factor-code-hint">{t("twoFactor.codeHint")}</p>
        {problem && <p class="field-error" id="second-factor-code-error">{t(problem)}</p>}
      </div>
      <div class="form-alert" role="alert">
        {expired && <p>{t("twoFactor.expired")}</p>}
        {failure && <p>{messageText(t, failure)}</p>}
      </div>
      {expired
        ? (
          <button type="button" class="button button-primary" onClick={props.onRestart}>
            {t("twoFactor.startOver")}
          </button>
        )
        : (
          <button type="submit" class="button button-primary" disabled={busy}>
            {busy ? t("twoFactor.verifying") : t("twoFactor.verify")}
          </button>
        )}
    </form>
  );
}
