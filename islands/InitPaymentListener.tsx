import { useEffect } from "preact/hooks";

/** The window message the payment frame may post (spec section 2, "Other"). */
export const INIT_PAYMENT_MESSAGE = "init-payment";

/** Listens for the `init-payment` window message and logs one line; renders nothing. */
export default function InitPaymentListener() {
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const data = event.data;
      if (
        data === INIT_PAYMENT_MESSAGE ||
        (data && typeof data === "object" && data.type === INIT_PAYMENT_MESSAGE)
      ) {
        console.info(`${INIT_PAYMENT_MESSAGE} message received`);
      }
    };
    addEventListener("message", onMessage);
    return () => removeEventListener("message", onMessage);
  }, []);
  return null;
}
