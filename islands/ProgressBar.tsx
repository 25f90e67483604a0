import { Component } from "preact";

/** How long a result page waits before it moves on, in ms, and how often the bar rises (spec section 9). */
const REDIRECT_MS = 7000;
const TICK_MS = 100;
/** Ticks until the bar is full: 70, each adding 100/70. */
const TICKS = REDIRECT_MS / TICK_MS;

/**
 * The progress bar of the success and error pages, together with their button ('New payment' or
 * 'Retry'): it rises every 100 ms and, when full after 7 s, navigates once to `href`
 * (`/{lang}` online, `/{lang}/terminal-payment/{shop}` at a terminal). The button is a real link
 * to the same place, so it works at once and without JavaScript; pressing it stops the timer, so
 * the page never starts a second navigation. The bar stays hidden until this island runs, so a
 * page without JavaScript shows no bar that never moves.
 *
 * "Both routes also reset the form" (spec section 2): the donation form keeps no state across
 * page loads (no storage, no shared signals), so arriving at it by navigation is the reset.
 *
 * A class component, like the shell's islands, so result pages never load `preact/hooks`: it is
 * the only JavaScript these pages add to the shell.
 */
export default class ProgressBar
  extends Component<{ href: string; label: string; buttonText: string }, { ticks: number }> {
  // -1 until the island runs (the bar is hidden), then the ticks so far.
  override state = { ticks: -1 };
  private timer: ReturnType<typeof setInterval> | undefined;

  override componentDidMount() {
    let n = 0;
    this.setState({ ticks: 0 });
    this.timer = setInterval(() => {
      this.setState({ ticks: ++n });
      if (n === TICKS) {
        clearInterval(this.timer);
        location.assign(this.props.href);
      }
    }, TICK_MS);
  }

  override componentWillUnmount() {
    clearInterval(this.timer);
  }

  override render() {
    const { href, label, buttonText } = this.props;
    const { ticks } = this.state;
    const value = Math.max(0, (ticks * 100) / TICKS);
    return (
      <div class="result-actions">
        <div class="progress-block" hidden={ticks < 0}>
          <p class="progress-label" id="progress-label">{label}</p>
          <div
            class="progress"
            role="progressbar"
            aria-labelledby="progress-label"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(value)}
          >
            {/* The width is set through the DOM (allowed by the CSP), never as a style attribute. */}
            <span class="progress-fill" style={ticks > 0 ? { inlineSize: `${value}%` } : undefined} />
          </div>
        </div>
        <a class="button button-primary" href={href} onClick={() => clearInterval(this.timer)}>
          {buttonText}
        </a>
      </div>
    );
  }
}
