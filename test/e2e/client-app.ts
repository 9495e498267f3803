// The app the client's browser tests drive: createAuth(...).handler at /auth on a real node:http
// server (through latchkey/node's toWebHandler), the embedded demo OpenID provider, a credentials
// provider, an email provider with an outbox, and the app's own pages: a custom sign-in page that
// never asked for a CSRF token, a page that shows the server's view of the session, a "tab" page
// that shows the client's state, and a React page rendered on the server and hydrated. The page
// scripts are bundled from src/ with esbuild when the app starts.
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { build } from "esbuild"
import { createElement } from "react"
import { renderToString } from "react-dom/server"
import { startDemoProvider } from "../../examples/demo-provider.mjs"
import { CredentialsSignin } from "../../src/errors.js"
import { createAuth } from "../../src/handler/index.js"
import { toWebHandler, toWebRequest } from "../../src/integrations/node.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"
import type { EmailConfig } from "../../src/providers/email/types.js"
import { SessionProvider } from "../../src/react/index.js"
import { ReactApp } from "./client-react-app.js"

class Locked extends CredentialsSignin {
  override code = "locked"
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
const json = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c")

async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [new URL(entry, import.meta.url).pathname],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    write: false,
    minify: false,
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "error",
  })
  return result.outputFiles[0]!.text
}

function page(title: string, body: string, scripts: string[] = []): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}${scripts.map((src) => `<script src="${src}"></script>`).join("")}</body></html>`
}

/** The custom sign-in page: a plain form whose submit goes through latchkey/client. No CSRF token was ever asked for. */
const LOGIN = page(
  "Log in",
  `<h1>Log in</h1>
<form id="login"><input name="username" aria-label="Username"><input name="password" type="password" aria-label="Password"><button type="submit">Log in</button></form>
<p id="result"></p>
<script type="module">
  document.getElementById("login").addEventListener("submit", async (event) => {
    event.preventDefault()
    const form = new FormData(event.target)
    const result = await latchkey.signIn("credentials", { username: form.get("username"), password: form.get("password"), redirectTo: "/account" })
    // Reached only on a failure: a success navigates.
    document.getElementById("result").textContent = JSON.stringify(result)
  })
</script>`,
  ["/client.js"],
)

/**
 * A tab: a client subscribed to the session, its state in #status/#name/#theme, and every session
 * read it makes counted in window.sessionReads (the count is taken when fetch is called).
 */
function tabPage(options: string): string {
  return page(
    "Tab",
    `<p id="status">…</p><p id="name"></p><p id="theme"></p>
<script type="module">
  window.sessionReads = 0
  const counting = (input, init) => {
    if (String(input).endsWith("/auth/session") && (init?.method ?? "GET") === "GET") window.sessionReads++
    return fetch(input, init)
  }
  window.client = latchkey.createAuthClient({ fetch: counting, ...${options} })
  window.client.subscribe(({ data, status }) => {
    document.getElementById("status").textContent = status
    document.getElementById("name").textContent = data?.user?.name ?? ""
    document.getElementById("theme").textContent = data?.theme ?? ""
  })
</script>`,
    ["/client.js"],
  )
}

export interface ClientApp {
  url: string
  issuer: string
  /** The links the email provider sent. */
  outbox: string[]
  close(): Promise<void>
}

export async function startClientApp(): Promise<ClientApp> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "localhost", resolve))
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`
  const provider = await startDemoProvider({ redirectUris: [`${origin}/auth/callback/demo`] })
  const outbox: string[] = []
  const email: EmailConfig = { id: "email", name: "Email", type: "email", from: "auth@example.com", sendVerificationRequest: ({ url }) => void outbox.push(url) }
  const credentials = Credentials({
    credentials: { username: {}, password: { type: "password" } },
    authorize: ({ username, password }) => {
      if (username === "locked") throw new Locked()
      return username === "ada" && password === "right" ? { id: "u-ada", name: "Ada", email: "ada@example.com" } : null
    },
  })
  const demo = { id: "demo", name: "Demo", type: "oidc" as const, issuer: provider.issuer, clientId: "latchkey-demo", clientSecret: "latchkey-demo-secret", authorization: { params: { scope: "openid email profile" } } }
  const { handler, auth } = createAuth({
    providers: [credentials, email, demo],
    secret: "latchkey-client-e2e-secret-0123456789abcdef",
    trustHost: true,
    env: {},
    adapter: memoryAdapter(),
    session: { strategy: "jwt" },
    pages: { signIn: "/login" },
    callbacks: {
      jwt: ({ token, trigger, session }) => {
        if (trigger === "update" && typeof session === "object" && session !== null && "theme" in session) return { ...token, theme: String(session.theme) }
        return token
      },
      session: ({ session, token }) => ({ ...session, theme: typeof token.theme === "string" ? token.theme : undefined }),
    },
  })
  const [clientScript, reactScript] = await Promise.all([bundle("./client-page.ts"), bundle("./client-react-page.ts")])
  const authRoutes = toWebHandler(handler)
  const send = (res: import("node:http").ServerResponse, type: string, body: string) => {
    res.setHeader("content-type", type)
    res.end(body)
  }
  server.on("request", async (req: IncomingMessage, res) => {
    const path = new URL(req.url ?? "/", origin).pathname
    if (path.startsWith("/auth")) return authRoutes(req, res)
    if (path === "/favicon.ico") return void res.writeHead(204).end()
    if (path === "/client.js") return send(res, "text/javascript", clientScript)
    if (path === "/react.js") return send(res, "text/javascript", reactScript)
    if (path === "/login") return send(res, "text/html; charset=utf-8", LOGIN)
    if (path === "/tab") return send(res, "text/html; charset=utf-8", tabPage("{}"))
    if (path === "/tab-no-focus") return send(res, "text/html; charset=utf-8", tabPage("{ refetchOnWindowFocus: false }"))
    const session = await auth(toWebRequest(req))
    if (path === "/account") return send(res, "text/html; charset=utf-8", page("Account", `<pre id="session">${escapeHtml(JSON.stringify(session))}</pre>`, ["/client.js"]))
    if (path === "/react" || path === "/react-required") {
      // The server's render of the React page, with the session it read: the HTML already shows it.
      const required = path === "/react-required"
      const html = renderToString(createElement(SessionProvider, { session }, createElement(ReactApp, { required })))
      return send(res, "text/html; charset=utf-8", page("React", `<div id="root">${html}</div><script>window.SESSION = ${json(session)}; window.REQUIRED = ${required}</script>`, ["/react.js"]))
    }
    res.statusCode = 404
    res.end("not found")
  })
  return {
    url: origin,
    issuer: provider.issuer,
    outbox,
    close: async () => {
      await provider.close()
      await new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))
    },
  }
}
