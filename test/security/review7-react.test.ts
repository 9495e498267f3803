// Review 7: latchkey/react (src/react/) in a browser-like render, against the real handler.
// The react tests run in Node with no DOM library (test/react/ uses renderToString only), so the
// browser renders here go through react-dom/client into a minimal container: the components under
// test render nothing (they log what useSession answered), so React creates no DOM nodes. `window`,
// the global focus events and `document.visibilityState` are the few browser globals the client uses.
// Every fetch is routed to createAuth(...).handler through the cookie jar of test/handler/support.ts.
import { act, createElement as h, StrictMode, useState, type ReactNode } from "react"
import { createRoot, hydrateRoot, type Root } from "react-dom/client"
import { renderToString } from "react-dom/server"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createAuthClient } from "../../src/client/client.js"
import type { AuthClient } from "../../src/client/types.js"
import { SessionProvider, useAuthClient, useSession, type UseSessionOptions, type UseSessionResult } from "../../src/react/index.js"
import type { Session } from "../../src/types.js"
import { app, session as serverSession } from "../handler/support.js"
import { APP, credentials } from "./review6-client-support.js"

const g = globalThis as any

/** The few browser globals the client and react-dom read. */
function browserGlobals() {
  const events = new EventTarget()
  const focusListeners = new Set<unknown>()
  g.IS_REACT_ACT_ENVIRONMENT = true
  g.window = globalThis
  g.addEventListener = (type: string, listener: any) => (type === "focus" && focusListeners.add(listener), events.addEventListener(type, listener))
  g.removeEventListener = (type: string, listener: any) => (type === "focus" && focusListeners.delete(listener), events.removeEventListener(type, listener))
  g.document = Object.assign(new EventTarget(), { visibilityState: "visible" })
  return { focus: () => events.dispatchEvent(new Event("focus")), focusListeners }
}

function clearBrowserGlobals() {
  for (const name of ["window", "addEventListener", "removeEventListener", "document", "IS_REACT_ACT_ENVIRONMENT"]) delete g[name]
}

/** A container react-dom accepts, for trees that render no host elements. */
function container(): any {
  const doc: any = { nodeType: 9, addEventListener() {}, removeEventListener() {}, activeElement: null, body: null }
  doc.defaultView = { document: doc, HTMLIFrameElement: class {} }
  const element: any = { nodeType: 1, nodeName: "DIV", tagName: "DIV", ownerDocument: doc, addEventListener() {}, removeEventListener() {}, childNodes: [], firstChild: null, lastChild: null, textContent: "" }
  doc.documentElement = element
  return element
}

/** The real handler behind a global fetch; `hold` keeps matching answers back until released. */
function server() {
  const auth = app({ providers: [credentials()] })
  const requests: string[] = []
  let offline = false
  let holding: ((method: string, path: string) => boolean) | undefined
  const held: Array<() => void> = []
  const routed: typeof fetch = async (input, init) => {
    const url = new URL(String(input), APP)
    const method = init?.method ?? "GET"
    requests.push(`${method} ${url.pathname}`)
    if (offline) throw new TypeError("Failed to fetch")
    const hold = holding?.(method, url.pathname) ?? false
    const { response } = await auth.browser.open(url, init)
    if (hold) await new Promise<void>((resolve) => held.push(resolve))
    return response
  }
  vi.stubGlobal("fetch", routed)
  // A client of the same browser (its cookie jar), outside React: signs the browser in or out.
  const outside = createAuthClient({ baseUrl: APP, fetch: routed, broadcast: false, refetchOnWindowFocus: false })
  return {
    auth,
    requests,
    sessionReads: () => requests.filter((request) => request === "GET /auth/session").length,
    setOffline: (value: boolean) => void (offline = value),
    hold: (match: (method: string, path: string) => boolean) => void (holding = match),
    held,
    signInAda: async () => {
      expect(await outside.signIn("credentials", { username: "ada", password: "right", redirect: false })).toMatchObject({ ok: true })
      const session = (await serverSession(auth.browser)) as Session
      requests.length = 0
      return session
    },
    signOutOnServer: async () => expect(await outside.signOut({ redirect: false })).toMatchObject({ ok: true }),
  }
}

type Log = Array<Pick<UseSessionResult, "status"> & { name: string | undefined }>

function Probe({ log, options }: { log: Log; options?: UseSessionOptions }) {
  const { data, status } = useSession(options)
  log.push({ status, name: data?.user?.name ?? undefined })
  return null
}

function Grab({ into }: { into: { client?: AuthClient } }) {
  into.client = useAuthClient()
  return null
}

// Long enough for a read the handler answers in process, on a loaded CI machine too.
const flush = () => act(async () => void (await new Promise((resolve) => setTimeout(resolve, 100))))

let roots: Root[] = []
let globals: ReturnType<typeof browserGlobals>

async function mount(element: ReactNode): Promise<Root> {
  const root = createRoot(container())
  roots.push(root)
  await act(async () => root.render(element))
  return root
}

beforeEach(() => {
  globals = browserGlobals()
})

afterEach(async () => {
  for (const root of roots) await act(async () => root.unmount())
  roots = []
  vi.useRealTimers()
  vi.unstubAllGlobals()
  clearBrowserGlobals()
})

describe("review 7: latchkey/react", () => {
  it("required: onUnauthenticated is not called while loading, then once, after the read says signed out", async () => {
    const { sessionReads } = server()
    const log: Log = []
    const calls: Array<{ reads: number; logged: Log }> = []
    const onUnauthenticated = () => void calls.push({ reads: sessionReads(), logged: [...log] })
    await mount(h(SessionProvider, null, h(Probe, { log, options: { required: true, onUnauthenticated } })))
    await flush()
    expect(sessionReads()).toBe(1)
    expect(calls).toHaveLength(1)
    expect(calls[0]!.reads).toBe(1) // the read was answered before the call
    expect(calls[0]!.logged.length).toBeGreaterThan(1) // a render came after the state changed, not the loading one
    expect(log.every((entry) => entry.status === "loading")).toBe(true) // nothing signed-out rendered
  })

  it("required with an inline onUnauthenticated calls it once, however often the signed-out page re-renders", async () => {
    // use-session.ts lists onUnauthenticated in the effect's dependencies; the docs' own example
    // passes an inline arrow (`onUnauthenticated: () => router.push("/login")`), a new function per
    // render, so any re-render while signed out (a parent's state, a context) runs the redirect again.
    server()
    const calls: string[] = []
    let bump: () => void = () => {}
    function Page() {
      const [, setCount] = useState(0)
      bump = () => setCount((count) => count + 1)
      useSession({ required: true, onUnauthenticated: () => void calls.push("away") })
      return null
    }
    await mount(h(SessionProvider, { session: null }, h(Page)))
    expect(calls).toEqual(["away"])
    await act(async () => bump())
    await act(async () => bump())
    expect(calls).toEqual(["away"]) // still signed out: no reason to be sent away again
  })

  it("hydration: the first client render shows the server's session, and nothing is fetched on mount", async () => {
    const { signInAda, sessionReads, requests } = server()
    const ada = await signInAda()
    requests.length = 0
    const serverLog: Log = []
    const element = (log: Log) => h(StrictMode, null, h(SessionProvider, { session: ada }, h(Probe, { log }), h(Probe, { log, options: { required: true } })))
    delete g.window
    renderToString(element(serverLog))
    g.window = globalThis
    const clientLog: Log = []
    const root = await act(async () => hydrateRoot(container(), element(clientLog)))
    roots.push(root)
    await flush()
    expect(serverLog).toEqual([{ status: "authenticated", name: "Ada" }, { status: "authenticated", name: "Ada" }])
    expect(clientLog[0]).toEqual(serverLog[0])
    expect(clientLog.every((entry) => entry.status === "authenticated")).toBe(true)
    expect(sessionReads()).toBe(0)
  })

  it("StrictMode with many useSession calls and no session prop: one read on mount; focus listeners and the interval are gone after unmount", async () => {
    const { signInAda, sessionReads, requests } = server()
    await signInAda()
    requests.length = 0
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] })
    const log: Log = []
    const probes = Array.from({ length: 8 }, (_, index) => h(Probe, { key: index, log }))
    const root = await mount(h(StrictMode, null, h(SessionProvider, { refetchInterval: 60 }, ...probes)))
    await flush()
    expect(sessionReads()).toBe(1)
    expect(log.at(-1)).toEqual({ status: "authenticated", name: "Ada" })
    expect(globals.focusListeners.size).toBe(1) // StrictMode's second effect pass left no duplicate
    await act(async () => vi.advanceTimersByTime(60_000))
    await flush()
    expect(sessionReads()).toBe(2) // the interval polls while mounted
    await act(async () => root.unmount())
    roots = roots.filter((other) => other !== root)
    expect(globals.focusListeners.size).toBe(0)
    globals.focus()
    vi.advanceTimersByTime(600_000)
    await flush()
    expect(sessionReads()).toBe(2)
  })

  it("a network failure on a re-read keeps the signed-in session (no signed-out flash)", async () => {
    const { signInAda, setOffline, sessionReads } = server()
    const ada = await signInAda()
    const log: Log = []
    await mount(h(SessionProvider, { session: ada }, h(Probe, { log })))
    setOffline(true)
    await act(async () => void globals.focus())
    await flush()
    expect(sessionReads()).toBe(1)
    expect(log.at(-1)).toEqual({ status: "authenticated", name: "Ada" })
    expect(log.some((entry) => entry.status !== "authenticated")).toBe(false)
  })

  it("a read started before a server action signed out (new session prop) does not put the user back", async () => {
    const { signInAda, signOutOnServer, hold, held } = server()
    const ada = await signInAda()
    const log: Log = []
    let setSession: (session: Session | null) => void = () => {}
    function App() {
      const [session, set] = useState<Session | null>(ada)
      setSession = set
      return h(SessionProvider, { session }, h(Probe, { log }))
    }
    await mount(h(App))
    hold((method, path) => method === "GET" && path === "/auth/session")
    await act(async () => void globals.focus()) // the server answers Ada; the answer is held on the wire
    while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 1))
    await signOutOnServer()
    await act(async () => setSession(null)) // the server rendered the page again, signed out
    expect(log.at(-1)).toEqual({ status: "unauthenticated", name: undefined })
    await act(async () => held.shift()!())
    await flush()
    expect(log.at(-1)).toEqual({ status: "unauthenticated", name: undefined })
  })

  it("two providers on different basePaths keep separate state: a sign-out through one leaves the other alone", async () => {
    const { signInAda, requests } = server()
    const ada = await signInAda()
    const a: Log = []
    const b: Log = []
    const grabbed: { client?: AuthClient } = {}
    await mount(h(SessionProvider, { session: ada, basePath: "/auth" }, h(Probe, { log: a }), h(Grab, { into: grabbed })))
    await mount(h(SessionProvider, { session: ada, basePath: "/other/auth" }, h(Probe, { log: b })))
    requests.length = 0
    await act(async () => void (await grabbed.client!.signOut({ redirect: false })))
    await flush()
    expect(a.at(-1)?.status).toBe("unauthenticated")
    expect(b.at(-1)).toEqual({ status: "authenticated", name: "Ada" })
    expect(requests.some((request) => request.includes("/other/auth"))).toBe(false)
  })

  it("changing refetchInterval after a sign-out in the page keeps the user signed out (the new client starts from the old one)", async () => {
    // session-provider.ts makes a new client whenever basePath, refetchInterval or
    // refetchOnWindowFocus change (the useMemo's dependencies), seeded with the `session` prop, the
    // server's answer from before the sign-out. The state the old client held (signed out) is lost,
    // and the signed-out user's data is rendered again.
    const { signInAda } = server()
    const ada = await signInAda()
    const log: Log = []
    const grabbed: { client?: AuthClient } = {}
    let setInterval_: (seconds: number) => void = () => {}
    function App() {
      const [interval, set] = useState(0)
      setInterval_ = set
      return h(SessionProvider, { session: ada, refetchInterval: interval }, h(Probe, { log }), h(Grab, { into: grabbed }))
    }
    await mount(h(App))
    await act(async () => void (await grabbed.client!.signOut({ redirect: false })))
    expect(log.at(-1)).toEqual({ status: "unauthenticated", name: undefined })
    log.length = 0
    await act(async () => setInterval_(300)) // e.g. poll faster on a settings page
    await flush()
    expect(log.filter((entry) => entry.status === "authenticated")).toEqual([])
  })
})
