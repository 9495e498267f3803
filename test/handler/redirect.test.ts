// sameOrigin's own guards, tested on the helper itself: every value a browser would follow off
// the origin is refused, whatever characters hide it; every value that stays is resolved.
import { describe, expect, it } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import { sameOrigin } from "../../src/handler/redirect.js"
import { SECRET } from "./support.js"

const ORIGIN = "https://app.example.com"

describe("sameOrigin", () => {
  const offsite = [
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\r/evil.example",
    "/\n/evil.example",
    "\t//evil.example",
    " //evil.example",
    "/\t\\evil.example",
    "https://evil.example/",
    "https://app.example.com.evil.example/",
    "https://app.example.com@evil.example/",
    "http://app.example.com/",
    "https://app.example.com:444/",
    "javascript:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,hi",
    // A blob: URL's origin is the origin it was made on, so the origin alone would let it through.
    "blob:https://app.example.com/0b0e1f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b",
    "BLOB:https://app.example.com/x",
    `/${"a".repeat(9000)}`,
  ]
  it.each(offsite)("refuses %j", (value) => {
    expect(sameOrigin(value, ORIGIN)).toBeUndefined()
  })

  it.each([
    ["/", `${ORIGIN}/`],
    ["/dashboard?tab=1#top", `${ORIGIN}/dashboard?tab=1#top`],
    ["dashboard", `${ORIGIN}/dashboard`],
    ["https://app.example.com/x", `${ORIGIN}/x`],
    ["HTTPS://APP.EXAMPLE.COM:443/x", `${ORIGIN}/x`],
    ["/a/../b", `${ORIGIN}/b`],
    // The parser reads a scheme-only URL of the base's own special scheme as a path, and so does a
    // browser following it: the answer is the absolute URL, so nothing is left to reinterpret.
    ["https:evil.example", `${ORIGIN}/evil.example`],
  ])("keeps %j as %s", (value, expected) => {
    expect(sameOrigin(value, ORIGIN)).toBe(expected)
  })

  it.each([null, undefined, ""])("answers undefined for %j", (value) => {
    expect(sameOrigin(value, ORIGIN)).toBeUndefined()
  })
})

describe("the app's own pages get the request's query", () => {
  it("GET <basePath>/verify-request redirects to pages.verifyRequest with its query, keeping the page's own", async () => {
    const { handler } = createAuth({ providers: [], secret: SECRET, trustHost: true, env: {}, pages: { verifyRequest: "/check-email?from=auth" } })
    const answer = await handler(new Request("https://app.example.com/auth/verify-request?provider=email&type=email"))
    expect(answer.status).toBe(302)
    expect(answer.headers.get("location")).toBe("https://app.example.com/check-email?from=auth&provider=email&type=email")
  })
})
