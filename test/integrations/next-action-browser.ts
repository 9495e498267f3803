// One browser calling latchkey/next's server actions, request after request: each action runs on
// its own request as Next builds it (the browser's headers, and cookies() wrapped as Next wraps it
// for actions, from Next's own cookie classes), and the cookies the action wrote are what the
// browser sends next.
import { RequestCookies } from "next/dist/compiled/@edge-runtime/cookies/index.js"
import { MutableRequestCookiesAdapter } from "next/dist/server/web/spec-extension/adapters/request-cookies.js"
import type { Auth } from "../../src/handler/index.js"
import { serverActions } from "../../src/integrations/next/actions.js"

const APP = "https://app.example.com"

type Actions = ReturnType<typeof serverActions>

export function nextActionBrowser(auth: Pick<Auth, "handler" | "auth" | "basePath">, options: { ip?: string; referer?: string } = {}) {
  let cookie = ""
  /** Runs one action on a request of its own, then keeps the cookies it wrote. */
  async function run<R>(call: (actions: Actions) => Promise<R>): Promise<R> {
    const headers = new Headers({ host: "app.example.com", "x-forwarded-proto": "https", origin: APP, referer: options.referer ?? `${APP}/account`, cookie })
    if (options.ip !== undefined) headers.set("cf-connecting-ip", options.ip)
    const store = MutableRequestCookiesAdapter.wrap(new RequestCookies(headers), () => {})
    const result = await call(serverActions(auth, { basePath: auth.basePath }, { headers: async () => headers, cookies: async () => store }))
    cookie = store.getAll().filter(({ value }) => value !== "").map(({ name, value }) => `${name}=${encodeURIComponent(value)}`).join("; ")
    return result
  }
  return {
    run,
    /** The session the browser's cookies now read as. */
    session: () => auth.auth(new Request(`${APP}/account`, { headers: { cookie } })),
    /** Drops every cookie, as a browser signed out by hand. */
    forget: () => void (cookie = ""),
  }
}
