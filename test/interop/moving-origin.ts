// One origin in the middle of a move from Auth.js to latchkey (or back): `/auth/*` is answered by
// whichever library it serves now, any other path by the app's own page, and other origins (the
// test's OpenID provider) by the network. The browser and the database stay across `serve`.

export type Side = "authjs" | "latchkey"

/** The fetch of `origin` with `apps` under /auth, serving `first` until `serve` picks the other. */
export function movingOrigin(origin: string, apps: Record<Side, (request: Request) => Promise<Response>>, first: Side = "authjs") {
  let serving = first
  const dispatch: typeof fetch = async (input, init) => {
    const url = new URL(String(input))
    if (url.origin !== origin) return fetch(input, init)
    if (!url.pathname.startsWith("/auth/")) return new Response("the app's page", { headers: { "content-type": "text/plain" } })
    return apps[serving](new Request(url, init as RequestInit))
  }
  return {
    dispatch,
    serving: () => serving,
    serve(side: Side) {
      serving = side
    },
  }
}
