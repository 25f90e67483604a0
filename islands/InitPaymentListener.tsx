import { Component } from "preact";

/** The window message the payment frame may post (spec section 2, "Other"). */
export const INIT_PAYMENT_MESSAGE = "init-payment";

function onMessage(event: MessageEvent) {
  const data = event.data;
  if (
    data === INIT_PAYMENT_MESSAGE || (data && typeof data === "object" && data.type === INIT_PAYMENT_MESSAGE)
  ) {
    console.info(`${INIT_PAYMENT_MESSAGE} message received`);
  }
}

/**
 * Listens for the `init-payment` window message and logs one line; renders nothing. A class
 * component so the shell needs no `preact/hooks`.
 */
export default class InitPaymentListener extends Component {
  override componentDidMount() {
    addEventListener("message", onMessage);
  }

  override componentWillUnmount() {
    removeEventListener("message", onMessage);
  }

  // An empty fragment (nothing on the page, like `null`) through the JSX runtime, as every other
  // island: the build then keeps the runtime in Preact's chunk rather than a file of its own that
  // every page loads (issue 29).
  override render() {
    // deno-lint-ignore jsx-no-useless-fragment
    return <></>;
  }
}
