// latchkey/react rendered on the server with react-dom/server: the session the server read is in
// the HTML (no signed-out or loading flash before hydration), and a client shared at module scope
// never carries one request's session into another request's render.
import { createElement as h } from "react"
import { renderToString } from "react-dom/server"
import { describe, expect, it, vi } from "vitest"
import { createAuthClient } from "../../src/client/client.js"
import type { AuthClient } from "../../src/client/types.js"
import { MissingSessionProviderError, SessionRouteNotFoundError } from "../../src/errors.js"
import { SessionProvider, useAuthClient, useSession } from "../../src/react/index.js"
import type { Session } from "../../src/types.js"

const ada: Session = { user: { name: "Ada", email: "ada@example.com" }, expires: "2099-01-01T00:00:00.000Z" }

function Status({ required = false }: { required?: boolean }) {
  const { data, status } = useSession({ required })
  return h("p", null, `${status}:${data?.user?.name ?? ""}`)
}

const render = (element: Parameters<typeof renderToString>[0]) => renderToString(element).replace(/<!-- -->/g, "")

describe("latchkey/react on the server", () => {
  it("renders the session it was given, signed in or signed out", () => {
    expect(render(h(SessionProvider, { session: ada }, h(Status)))).toBe("<p>authenticated:Ada</p>")
    expect(render(h(SessionProvider, { session: null }, h(Status)))).toBe("<p>unauthenticated:</p>")
    expect(render(h(SessionProvider, null, h(Status)))).toBe("<p>loading:</p>")
  })

  it("with required, nothing signed-out is rendered", () => {
    expect(render(h(SessionProvider, { session: null }, h(Status, { required: true })))).toBe("<p>loading:</p>")
    expect(render(h(SessionProvider, { session: ada }, h(Status, { required: true })))).toBe("<p>authenticated:Ada</p>")
  })

  it("a client shared at module scope never carries one request's session into another's render", () => {
    const shared = createAuthClient({ baseUrl: "https://app.example.com" })
    // Request 1, signed in as Ada, renders with the shared client.
    expect(render(h(SessionProvider, { client: shared, session: ada }, h(Status)))).toBe("<p>authenticated:Ada</p>")
    // Request 2 has not read its session (no prop): it must not see Ada's.
    expect(render(h(SessionProvider, { client: shared }, h(Status)))).toBe("<p>loading:</p>")
    expect(render(h(SessionProvider, { client: shared, session: null }, h(Status)))).toBe("<p>unauthenticated:</p>")
    expect(shared.getState().status).toBe("loading")
  })

  it("useSession outside a SessionProvider is a typed error", () => {
    expect(() => render(h(Status))).toThrow(MissingSessionProviderError)
    expect(() => render(h(Status))).toThrow(expect.objectContaining({ code: "ERR_NO_SESSION_PROVIDER" }))
  })
})

// Issue "Round three", item 16: a provider left at its default /auth in an app whose handler kept
// next-auth's /api/auth. Its client's reads get the framework's 404; the provider's onError hears
// of it once, as a SessionRouteNotFoundError naming the basePath, and nothing throws.
describe("SessionProvider with a basePath nothing is mounted at", () => {
  it("reports SessionRouteNotFoundError to onError once, from the client it made", async () => {
    const asked: string[] = []
    vi.stubGlobal("fetch", async (url: string) => (asked.push(String(url)), new Response("<h1>404</h1>", { status: 404, headers: { "content-type": "text/html" } })))
    try {
      const errors: unknown[] = []
      let client: AuthClient | undefined
      function Capture() {
        client = useAuthClient()
        return null
      }
      render(h(SessionProvider, { session: ada, onError: (error: unknown) => void errors.push(error) }, h(Capture)))
      expect(await client!.getSession()).toEqual(ada)
      await client!.getSession()
      expect(asked).toEqual(["/auth/session", "/auth/session"])
      expect(errors).toEqual([expect.any(SessionRouteNotFoundError)])
      expect(errors[0]).toMatchObject({ code: "ERR_SESSION_ROUTE_NOT_FOUND", url: "/auth/session" })
    } finally {
      vi.unstubAllGlobals()
    }
  })
})
