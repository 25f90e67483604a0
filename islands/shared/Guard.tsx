import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";

/**
 * The generic route guard of spec section 6: shows its children when `allowed`, otherwise goes
 * to `redirectTo` (default `/`), replacing the history entry so Back does not return to a page
 * the visitor may not see. While `allowed` is still unknown (`undefined`), shows `pending`.
 *
 * @example
 * ```tsx
 * <Guard allowed={session !== null} redirectTo={`/${lang}/login`} pending={<Spinner />}>
 *   <Dashboard />
 * </Guard>
 * ```
 */
export function Guard(props: {
  allowed: boolean | undefined;
  redirectTo?: string;
  pending?: ComponentChildren;
  children: ComponentChildren;
}) {
  const to = props.redirectTo ?? "/";
  useEffect(() => {
    if (props.allowed === false) location.replace(to);
  }, [props.allowed, to]);
  if (props.allowed === undefined) return <>{props.pending}</>;
  return props.allowed ? <>{props.children}</> : null;
}
