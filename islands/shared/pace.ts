/**
 * The back office's updates, one per frame. Its answers (chart, lists) often arrive together; each
 * update renders at once, but the browser lays out and paints everything new in its next frame,
 * and that frame was the page's longest task. Paced, each update gets a frame of its own.
 *
 * @module
 */

/** Queues an update (a state change); it runs once the frame of the one before has been painted. */
export type Pace = (update: () => void) => void;

/**
 * A queue of updates. The first runs at once (in the same task); each later one in a task after the
 * browser's next frame following the one before it.
 *
 * @example
 * ```ts
 * const pace = createPace();
 * pace(() => setChart(data)); // now
 * pace(() => setRows(rows)); // after the chart's frame
 * ```
 */
export function createPace(nextFrame: () => Promise<void> = afterNextFrame): Pace {
  let tail: Promise<void> | null = null;
  const settle = (done: Promise<void>) => {
    tail = done;
    done.then(() => {
      if (tail === done) tail = null;
    });
  };
  return (update) => {
    if (!tail) {
      try {
        update();
      } finally {
        settle(nextFrame());
      }
      return;
    }
    settle(tail.then(() => {
      try {
        update();
      } catch (error) {
        // Reported, and the updates after it still run.
        globalThis.reportError(error);
      }
      return nextFrame();
    }));
  };
}

/**
 * Resolves in a task after the browser's next frame, or after 100 ms when no frame comes (a tab in
 * the background gets none).
 */
export function afterNextFrame(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 100);
    requestAnimationFrame(() => {
      clearTimeout(fallback);
      // rAF runs before the frame is drawn; the task after it runs after.
      setTimeout(resolve);
    });
  });
}

/** The page's queue. */
export const pace: Pace = createPace();
