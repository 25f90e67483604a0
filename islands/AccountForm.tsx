import { useEffect, useRef, useState } from "preact/hooks";
import type { Message } from "@/islands/shared/account_forms.ts";
import {
  authFailure,
  type FieldProblems,
  loginProblems,
  type RegisterFields,
  registerProblems,
} from "@/islands/shared/sign_in_forms.ts";
import { createSignIn } from "@/islands/shared/admin_sign_in.ts";
import { SecondFactorStep } from "@/islands/shared/SecondFactorStep.tsx";
import { readSession } from "@/islands/shared/admin_session.ts";
import { messageText, translator } from "@/islands/shared/texts.ts";

/** The page's language, which form, and its translated texts. */
export interface AccountFormProps {
  lang: string;
  mode: "login" | "register";
  texts: Record<string, string>;
}

type Field = keyof RegisterFields;

const FIELDS: Record<AccountFormProps["mode"], Field[]> = {
  login: ["email", "password"],
  register: ["name", "email", "password", "confirm"],
};

const LABELS: Record<Field, string> = {
  name: "register.name",
  email: "login.email",
  password: "login.password",
  confirm: "register.confirm",
};

const EMPTY: RegisterFields = { name: "", email: "", password: "", confirm: "" };

function problemsOf(mode: AccountFormProps["mode"], fields: RegisterFields): FieldProblems<RegisterFields> {
  return mode === "login" ? loginProblems(fields) : registerProblems(fields);
}

/**
 * The admin sign-in and register forms (spec sections 2, 4, 5 and 8): fields checked on blur and
 * on submit (the first invalid field takes focus), show/hide toggles on the passwords, the button
 * saying 'Signing in...' or 'Creating account...' while the call runs, and the server's refusal
 * in the error area, worded by the section 8 catalogue. A stored session skips the form and goes
 * to the back office, as does success.
 *
 * The back office keeps its session in local storage, so this needs JavaScript: until the island
 * runs, the submit button stays disabled (a form sent without it would go nowhere useful).
 */
export default function AccountForm(props: AccountFormProps) {
  const t = translator(props.texts);
  const { lang, mode } = props;
  const [fields, setFields] = useState<RegisterFields>(EMPTY);
  const [problems, setProblems] = useState<FieldProblems<RegisterFields>>({});
  const [shown, setShown] = useState({ password: false, confirm: false });
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  const [failure, setFailure] = useState<Message | null>(null);
  const form = useRef<HTMLFormElement>(null);
  // The password step's pending token while the code step shows (two-factor sign-in).
  const [pendingToken, setPendingToken] = useState<string | null>(null);
  const adminHref = `/${lang}/admin`;

  useEffect(() => {
    // Already signed in: the form has nothing to do (spec section 2).
    if (readSession()) return location.replace(adminHref);
    // Keep what was typed before the island ran (a slow connection, a form the browser restored):
    // the first render after hydration would otherwise set every input back to "".
    const typed = { ...EMPTY };
    for (const name of FIELDS[mode]) {
      typed[name] = form.current?.querySelector<HTMLInputElement>(`[name="${name}"]`)?.value ?? "";
    }
    setFields(typed);
    setReady(true);
  }, []);

  const check = (name: Field, next: RegisterFields) => {
    const problem = problemsOf(mode, next)[name];
    setProblems((current) => ({ ...current, [name]: problem }));
  };

  async function submit(event: Event) {
    event.preventDefault();
    if (busy) return;
    const found = problemsOf(mode, fields);
    setProblems(found);
    const first = FIELDS[mode].find((name) => found[name]);
    if (first) {
      form.current?.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setBusy(true);
    setFailure(null);
    const api = createSignIn();
    try {
      const email = fields.email.trim();
      const answer = mode === "login"
        ? await api.signIn(email, fields.password)
        : await api.register(fields.name.trim(), email, fields.password);
      if ("pendingToken" in answer) {
        setPendingToken(answer.pendingToken);
        setBusy(false);
        return;
      }
      // Two-factor is required and this account has none: its session opens only the enrolment.
      location.assign(answer.admin.twoFactorEnrolmentDue ? `${adminHref}/two-factor` : adminHref);
    } catch (error) {
      setFailure(authFailure(error, mode));
      setBusy(false);
    }
  }

  const input = (name: Field) => {
    const id = `${mode}-${name}`;
    const problem = problems[name];
    const secret = name === "password" || name === "confirm";
    const visible = secret && shown[name as "password" | "confirm"];
    const toggleKey = name === "confirm"
      ? (visible ? "register.hideConfirm" : "register.showConfirm")
      : (visible ? "login.hidePassword" : "login.showPassword");
    return (
      <div class="field" key={name}>
        <label for={id}>{t(LABELS[name])}</label>
        <div class={secret ? "password-input" : undefined}>
          <input
            id={id}
            name={name}
            type={(secret && !visible ? "password" : name === "email" ? "email" : "text") as "text"}
            autoComplete={name === "email"
              ? "username"
              : name === "name"
              ? "name"
              : mode === "login"
              ? "current-password"
              : "new-password"}
            dir={name === "email" || secret ? "ltr" : undefined}
            required
            value={fields[name]}
            aria-invalid={problem ? "true" : undefined}
            aria-describedby={problem ? `${id}-error` : undefined}
            onInput={(e) => {
              const next = { ...fields, [name]: (e.target as HTMLInputElement).value };
              setFields(next);
              // Once a problem shows, it clears as soon as the field is right.
              if (problems[name]) check(name, next);
              if (name === "password" && problems.confirm) check("confirm", next);
            }}
            onBlur={() => check(name, fields)}
          />
          {secret && (
            <button
              type="button"
              class="password-toggle"
              aria-controls={id}
              onClick={() => setShown((s) => ({ ...s, [name]: !visible }))}
            >
              {t(toggleKey)}
            </button>
          )}
        </div>
        {problem && <p class="field-error" id={`${id}-error`}>{t(problem)}</p>}
      </div>
    );
  };

  if (pendingToken) {
    return (
      <SecondFactorStep
        api={createSignIn()}
        pendingToken={pendingToken}
        t={t}
        onSignedIn={() => location.assign(adminHref)}
        onRestart={() => {
          setPendingToken(null);
          setFields((f) => ({ ...f, password: "" }));
        }}
      />
    );
  }

  return (
    <form ref={form} class="account-form" method="post" noValidate onSubmit={submit}>
      {FIELDS[mode].map(input)}
      <div class="form-alert" role="alert">
        {failure && (
          <>
            <p>{messageText(t, failure)}</p>
            {failure.hint && <p>{t(failure.hint)}</p>}
          </>
        )}
      </div>
      <button type="submit" class="button button-primary" disabled={!ready || busy}>
        {busy
          ? t(mode === "login" ? "login.signingIn" : "register.creating")
          : t(mode === "login" ? "login.submit" : "register.submit")}
      </button>
      <p class="account-switch">
        {mode === "login"
          ? (
            <>
              {t("login.noAccount")} <a href={`/${lang}/register`}>{t("login.registerLink")}</a>
            </>
          )
          : (
            <>
              {t("register.haveAccount")} <a href={`/${lang}/login`}>{t("register.loginLink")}</a>
            </>
          )}
      </p>
    </form>
  );
}
