import { Component } from "preact";

/** How far the page must be scrolled before the button shows, in CSS pixels (spec section 9). */
export const SCROLL_THRESHOLD = 200;

/**
 * The scroll-to-top button: hidden until the page is scrolled past 200 px; bottom-left in
 * left-to-right languages and bottom-right in right-to-left ones (CSS logical properties).
 *
 * A class component on purpose: the shell's islands use no hooks, so pages with only the shell
 * (and the result pages) never download `preact/hooks` (about 1.1 KB gzip).
 */
export default class ScrollToTop extends Component<{ label: string }, { visible: boolean }> {
  override state = { visible: false };
  private update = () => this.setState({ visible: globalThis.scrollY > SCROLL_THRESHOLD });

  override componentDidMount() {
    this.update();
    addEventListener("scroll", this.update, { passive: true });
  }

  override componentWillUnmount() {
    removeEventListener("scroll", this.update);
  }

  private toTop = () => {
    const reduce = matchMedia("(prefers-reduced-motion: reduce)").matches;
    scrollTo({ top: 0, behavior: reduce ? "auto" : "smooth" });
    document.getElementById("top")?.querySelector<HTMLElement>("a")?.focus({ preventScroll: true });
  };

  override render() {
    const { label } = this.props;
    return (
      <button
        type="button"
        class="scroll-top"
        aria-label={label}
        title={label}
        hidden={!this.state.visible}
        onClick={this.toTop}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="24" height="24">
          <path d="M12 5l-7 7 1.4 1.4 4.6-4.6V19h2V8.8l4.6 4.6L19 12z" fill="currentColor" />
        </svg>
      </button>
    );
  }
}
