/**
 * The input of a code from an authenticator app (6 digits, or a recovery code where one is taken):
 * numeric keypad, the browser's one-time-code autofill, left to right in every language. For the
 * two-factor set-up and an admin's own two-factor management.
 */
export function CodeInput(
  props: { id: string; value: string; onInput(value: string): void; describedBy?: string },
) {
  return (
    <input
      id={props.id}
      name="code"
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      dir="ltr"
      required
      maxLength={20}
      aria-describedby={props.describedBy}
      value={props.value}
      onInput={(e) => props.onInput((e.target as HTMLInputElement).value)}
    />
  );
}
