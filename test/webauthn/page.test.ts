// The sign-in page and the served script: with a passkey provider the page offers "Sign in with a
// passkey" and autofill, loads exactly one script from the handler under a CSP that admits exactly
// that URL, and has no inline script or handler; without one, the page keeps no scripts at all.
// The script is what a fresh bundle of the client gives, talks to no other origin, and is served
// with its content type and cache headers.
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { passkeyScriptModule, GENERATED } from "../../scripts/passkey-script.mjs"
import { createAuth } from "../../src/handler/index.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Passkey from "../../src/providers/passkey.js"
import { webauthn } from "../../src/webauthn/index.js"
import { ORIGIN, passkeyApp, SECRET } from "./support.js"

const get = (app: { handler: (request: Request) => Promise<Response> }, path: string) => app.handler(new Request(`${ORIGIN}/auth${path}`))

describe("the passkey sign-in page", () => {
  it("offers the passkey section, hidden until the script shows it, with autofill on the email field", async () => {
    const page = await (await get(passkeyApp(), "/signin")).text()
    const section = /<form data-latchkey-passkey="passkey"[^>]*>.*?<\/form>/s.exec(page)?.[0] ?? ""
    expect(section).toMatch(/ data-conditional hidden>/)
    expect(section).toContain(`data-base="${ORIGIN}/auth"`)
    expect(section).toContain('autocomplete="username webauthn"')
    expect(section).toContain("<span>Sign in with a passkey</span>")
    expect(section).toContain('data-passkey-action="register"')
    expect(section).toMatch(/name="csrfToken" value="[^"]+"/)
  })

  it("loads one script from the handler, and its policy admits exactly that script and nothing inline", async () => {
    const response = await get(passkeyApp(), "/signin")
    const page = await response.text()
    const scripts = [...page.matchAll(/<script\b[^>]*>/g)].map((match) => match[0])
    expect(scripts).toEqual([`<script src="${ORIGIN}/auth/webauthn-client.js?v=${webauthn.scriptVersion}" defer>`])
    expect(page).not.toMatch(/<script>|\son[a-z]+=/i)
    expect(response.headers.get("content-security-policy")).toContain(`script-src ${ORIGIN}/auth/webauthn-client.js; connect-src 'self'`)
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'")
  })

  it("keeps apps without a passkey provider free of scripts, even with the ceremony passed", async () => {
    const app = createAuth({ providers: [], webauthn, secret: SECRET, env: { AUTH_URL: `${ORIGIN}/auth` } })
    const response = await app.handler(new Request(`${ORIGIN}/auth/signin`))
    expect(await response.text()).not.toMatch(/<script|data-latchkey-passkey/)
    expect(response.headers.get("content-security-policy")).not.toContain("script-src")
    expect((await app.handler(new Request(`${ORIGIN}/auth/webauthn-client.js`))).status).toBe(404)
  })

  it("without conditional UI (WebAuthn) or sign-up, offers only the button", async () => {
    const app = passkeyApp({ providers: [Passkey({ enableConditionalUI: false })], adapter: memoryAdapter() })
    const page = await (await get(app, "/signin")).text()
    expect(page).toContain('autocomplete="username"')
    expect(page).not.toContain("data-conditional")
    expect(page).not.toContain('data-passkey-action="register"')
  })
})

describe("the served passkey script", () => {
  it("is what a fresh bundle of the client and @simplewebauthn/browser gives", () => {
    expect(readFileSync(GENERATED, "utf8")).toBe(passkeyScriptModule())
  })

  it("is self-contained: no imports, no eval, no requests but relative fetches to the handler", () => {
    const script = webauthn.script
    expect(script.length).toBeGreaterThan(1000)
    expect(script).not.toMatch(/\bimport\s*\(|\bimport\s+[{*\w]|\beval\(|new Function|XMLHttpRequest|sendBeacon|WebSocket|EventSource|importScripts/)
    const fetches = [...script.matchAll(/fetch\(([^,)]*)/g)].map((match) => match[1]!)
    expect(fetches.length).toBeGreaterThan(0)
    for (const target of fetches) expect(target).not.toMatch(/["'`]https?:/)
  })

  it("is served as JavaScript, cached for a year when asked for by version, briefly otherwise", async () => {
    const app = passkeyApp()
    const versioned = await get(app, `/webauthn-client.js?v=${webauthn.scriptVersion}`)
    expect(versioned.status).toBe(200)
    expect(versioned.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    expect(versioned.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    expect(versioned.headers.get("x-content-type-options")).toBe("nosniff")
    expect(await versioned.text()).toBe(webauthn.script)
    const plain = await get(app, "/webauthn-client.js")
    expect(plain.headers.get("cache-control")).toBe("public, max-age=300")
    const stale = await get(app, "/webauthn-client.js?v=0000000000000000")
    expect(stale.headers.get("cache-control")).toBe("public, max-age=300")
  })
})
