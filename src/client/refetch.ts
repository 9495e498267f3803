/**
 * When to re-read the session on the client's own initiative: when the page becomes visible or
 * the window gains focus (a user coming back to a tab sees the truth), and every `interval`
 * seconds while signed in and online. Nothing is listened to outside a browser.
 */

export interface RefetchTriggers {
  onFocus: boolean
  /** Seconds; 0 for none. */
  interval: number
}

/**
 * Calls `refetch` on the configured triggers (`signedIn` tells whether polling is worth it);
 * answers the function that stops listening.
 */
export function watchRefetchTriggers(triggers: RefetchTriggers, refetch: () => void, signedIn: () => boolean): () => void {
  const stops: Array<() => void> = []
  if (triggers.onFocus && typeof addEventListener === "function" && typeof document !== "undefined") {
    const onVisible = () => {
      if (document.visibilityState === "visible") refetch()
    }
    // Switching tabs fires both; the client shares one read between them.
    document.addEventListener("visibilitychange", onVisible)
    addEventListener("focus", refetch)
    stops.push(() => document.removeEventListener("visibilitychange", onVisible), () => removeEventListener("focus", refetch))
  }
  if (triggers.interval > 0) {
    const timer = setInterval(() => {
      const online = typeof navigator === "undefined" || navigator.onLine !== false
      if (online && signedIn()) refetch()
    }, triggers.interval * 1000)
    stops.push(() => clearInterval(timer))
  }
  return () => {
    for (const stop of stops) stop()
  }
}
