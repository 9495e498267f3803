import { describe, expect, it } from "vitest"
import { InvalidOptionError } from "../../src/errors.js"
import { parseCookieHeader, readChunkedCookie, setCookieHeaders, SET_COOKIE_LIMIT } from "../../src/jwt/cookies.js"
import { backend, codec, PLAIN, SECRET, SECURE } from "./support.js"

/** The cookies a browser would hold after these Set-Cookie lines. */
function browserJar(lines: string[], jar: Record<string, string> = {}): Record<string, string> {
  for (const line of lines) {
    const [pair] = line.split(";")
    const at = pair!.indexOf("=")
    const name = pair!.slice(0, at)
    if (/Max-Age=0/.test(line)) delete jar[name]
    else jar[name] = pair!.slice(at + 1)
  }
  return jar
}

const asHeader = (jar: Record<string, string>) =>
  Object.entries(jar)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ")

describe(`setCookieHeaders (${backend.name})`, () => {
  it("writes one cookie when it fits, with safe default attributes", async () => {
    const token = await codec.encode({ token: { sub: "1" }, secret: SECRET, salt: SECURE })
    const [line, ...rest] = setCookieHeaders({ name: SECURE, value: token, options: { maxAge: 60 } })
    expect(rest).toEqual([])
    expect(line).toBe(`${SECURE}=${token}; Max-Age=60; Path=/; HttpOnly; Secure; SameSite=Lax`)
  })

  it("chunks a large token so every full Set-Cookie line stays under 4096 bytes, and reads it back", async () => {
    for (const size of [3900, 4100, 9000, 30000]) {
      const token = await codec.encode({ token: { big: "z".repeat(size) }, secret: SECRET, salt: PLAIN })
      const lines = setCookieHeaders({ name: PLAIN, value: token, options: { domain: "example.com", maxAge: 2592000 } })
      expect(lines.length).toBeGreaterThan(0)
      for (const line of lines) expect(new TextEncoder().encode(`Set-Cookie: ${line}`).length).toBeLessThan(SET_COOKIE_LIMIT)
      const jar = browserJar(lines)
      expect(readChunkedCookie(parseCookieHeader(asHeader(jar)), PLAIN)).toBe(token)
    }
  })

  it("fills chunks up to the limit rather than wasting space", async () => {
    const token = await codec.encode({ token: { big: "z".repeat(20000) }, secret: SECRET, salt: PLAIN })
    const lines = setCookieHeaders({ name: PLAIN, value: token })
    expect(`Set-Cookie: ${lines[0]}`.length).toBe(SET_COOKIE_LIMIT - 1)
  })

  it("expires chunks the request holds that the new value does not use", async () => {
    const big = await codec.encode({ token: { big: "z".repeat(12000) }, secret: SECRET, salt: PLAIN })
    const jar = browserJar(setCookieHeaders({ name: PLAIN, value: big }))
    const chunkNames = Object.keys(jar)
    expect(chunkNames.length).toBeGreaterThanOrEqual(3)
    expect(chunkNames).toEqual(chunkNames.map((_, index) => `${PLAIN}.${index}`))
    const small = await codec.encode({ token: { sub: "1" }, secret: SECRET, salt: PLAIN })
    const request = new Headers({ cookie: asHeader({ ...jar, unrelated: "keep" }) })
    const lines = setCookieHeaders({ name: PLAIN, value: small, request })
    browserJar(lines, jar)
    expect(Object.keys(jar)).toEqual([PLAIN])
    expect(readChunkedCookie(parseCookieHeader(asHeader(jar)), PLAIN)).toBe(small)
    expect(lines.filter((line) => line.includes("Max-Age=0"))).toHaveLength(chunkNames.length)
  })

  it("removing clears the cookie and every chunk", () => {
    const request = new Headers({ cookie: `${PLAIN}.0=a; ${PLAIN}.1=b; other=c` })
    const lines = setCookieHeaders({ name: PLAIN, value: null, request })
    expect(lines.map((line) => line.split("=")[0])).toEqual([PLAIN, `${PLAIN}.0`, `${PLAIN}.1`])
    for (const line of lines) expect(line).toMatch(/Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT/)
  })

  it("splits values that need percent-encoding without breaking a character", () => {
    const value = "é€😀;,".repeat(2000)
    const lines = setCookieHeaders({ name: "data", value })
    expect(lines.length).toBeGreaterThan(1)
    for (const line of lines) expect(`Set-Cookie: ${line}`.length).toBeLessThan(SET_COOKIE_LIMIT)
    expect(readChunkedCookie(parseCookieHeader(asHeader(browserJar(lines))), "data")).toBe(value)
  })

  it.each([
    ["a __Secure- name without Secure", { name: SECURE, value: "x", options: { secure: false } }, "options.secure"],
    ["SameSite=None without Secure", { name: "a", value: "x", options: { secure: false, sameSite: "none" as const } }, "options.sameSite"],
    ["a name with a space", { name: "bad name", value: "x" }, "name"],
    ["an empty name", { name: "", value: "x" }, "name"],
    ["a non-string value", { name: "a", value: 5 as never }, "value"],
    ["a value beyond the chunk limit", { name: "a", value: "v".repeat(200_000) }, "value"],
  ])("rejects %s with a typed error", (_, params, option) => {
    expect(() => setCookieHeaders(params)).toThrow(InvalidOptionError)
    try {
      setCookieHeaders(params)
    } catch (error) {
      expect((error as InvalidOptionError).option).toBe(option)
    }
  })
})
