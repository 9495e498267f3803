// readTokenCookie is the single-pass session-cookie reader getToken and the handler use on every
// request; readChunkedCookie(parseCookieHeader(…)) is the general reader it must match exactly:
// the same token, or the same error, for any header, including the tossed, doubled and gapped
// chunk sets the security suite attacks with.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { loneTokenCookie, parseCookieHeader, readChunkedCookie, readTokenCookie, requestCookie, requestCookies } from "../../src/jwt/cookies.js"
import { PLAIN, SECURE } from "./support.js"

type Outcome = { token: string | undefined } | { error: string }

function outcome(read: () => string | undefined): Outcome {
  try {
    return { token: read() }
  } catch (error) {
    return { error: `${(error as { code?: string }).code}: ${(error as Error).message}` }
  }
}

function bothReaders(header: string, name: string): [Outcome, Outcome] {
  return [outcome(() => readTokenCookie(header, name)), outcome(() => readChunkedCookie(parseCookieHeader(header), name))]
}

describe("readTokenCookie", () => {
  it.each([
    [`theme=dark; ${PLAIN}=abc; _ga=1`, "abc"],
    [`${PLAIN}.0=ab; x=1; ${PLAIN}.1=cd`, "abcd"],
    [`${PLAIN}.1=cd; ${PLAIN}.0=ab`, "abcd"],
    [` \t${PLAIN} \t= abc%41 ;`, "abcA"],
    [`${SECURE}=abc`, undefined],
    [`x${PLAIN}=abc; ${PLAIN}x=1`, undefined],
    [`${PLAIN}`, undefined],
    ["", undefined],
  ])("%j → %j", (header, token) => {
    expect(readTokenCookie(header, PLAIN)).toBe(token)
    expect(bothReaders(header, PLAIN)[0]).toEqual(bothReaders(header, PLAIN)[1])
  })

  it.each([
    [`${PLAIN}=a; ${PLAIN}=b`, "more than once"],
    [`${PLAIN}; ${PLAIN}=b`, "more than once"],
    [`${PLAIN}.0=a; ${PLAIN}.0=b`, "more than once"],
    [`${PLAIN}=a; ${PLAIN}.0=b`, "both whole and in chunks"],
    [`${PLAIN}.0=a; ${PLAIN}.2=b`, "missing a chunk"],
    [`${PLAIN}.32=a`, "more than 32 chunks"],
  ])("%j is refused: %s", (header, message) => {
    expect(() => readTokenCookie(header, PLAIN)).toThrow(message)
    expect(bothReaders(header, PLAIN)[0]).toEqual(bothReaders(header, PLAIN)[1])
  })

  it("answers what readChunkedCookie(parseCookieHeader(…)) answers, for any header", () => {
    const names = [PLAIN, SECURE, `${PLAIN}.0`, `${PLAIN}.1`, `${PLAIN}.2`, `${PLAIN}.01`, `${PLAIN}.32`, `${SECURE}.0`, `x${PLAIN}`, "other", ""]
    const piece = fc.oneof(
      fc.constantFrom(...names),
      fc.constantFrom(" ", "\t", "\u00a0", "\n", "\v", "\u2028", "\ufeff", "\u007f", ";", "=", ";=", "%41", "%zz", '"', "abc", "é"),
      fc.string({ maxLength: 6 })
    )
    const pair = fc.tuple(fc.constantFrom("", " ", "\t", "\u00a0", "\r\n", "\ufeff"), fc.constantFrom(...names), fc.constantFrom("=", " =", "", "=="), fc.array(piece, { maxLength: 3 }))
    const header = fc.oneof(
      fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.map(([space, name, equals, value]) => `${space}${name}${equals}${value.join("")}`).join(";")),
      fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(""))
    )
    const seen = { tokens: 0, errors: 0 }
    fc.assert(
      fc.property(header, fc.constantFrom(PLAIN, SECURE), (text, name) => {
        const [fast, general] = bothReaders(text, name)
        expect(fast).toEqual(general)
        if ("error" in general) seen.errors++
        else if (general.token !== undefined) seen.tokens++
      }),
      { numRuns: 5000 }
    )
    // Both kinds of outcome were exercised, not only "no token".
    expect(seen.tokens).toBeGreaterThan(0)
    expect(seen.errors).toBeGreaterThan(0)
  })

  // loneTokenCookie answers for the header a browser sends with one session in it, and leaves every
  // other header to the single-pass reader. Headers shaped like a browser's, "; "-joined, with
  // the name repeated, chunked, inside another value or next to look-alikes: whenever it answers,
  // the general reader must answer the same token, and it must answer often enough to be tested.
  it("loneTokenCookie answers only what readChunkedCookie(parseCookieHeader(…)) answers", () => {
    const names = [PLAIN, PLAIN, PLAIN, SECURE, `${PLAIN}.0`, `${PLAIN}.1`, `x${PLAIN}`, `${PLAIN}x`, `x ${PLAIN}`, "theme", "_ga"]
    const value = fc.array(fc.constantFrom("abc", "eyJ.x_-", "%41", "%zz", " ", "\t", '"', "=", PLAIN, ` ${PLAIN}=v`, `;${PLAIN}=v`, "é", ""), { maxLength: 4 }).map((pieces) => pieces.join(""))
    const pair = fc.tuple(fc.constantFrom(...names), fc.constantFrom("=", "=", " =", ""), value).map(([name, equals, text]) => `${name}${equals}${text}`)
    const header = fc.tuple(fc.array(pair, { minLength: 1, maxLength: 5 }), fc.constantFrom("; ", ";", ";  ", " ; ", "; \t")).map(([pairs, separator]) => pairs.join(separator))
    let answered = 0
    fc.assert(
      fc.property(header, fc.constantFrom(PLAIN, SECURE), (text, name) => {
        const at = text.indexOf(name)
        const lone = at === -1 ? undefined : loneTokenCookie(text, name, at)
        const [fast, general] = bothReaders(text, name)
        expect(fast).toEqual(general)
        if (lone !== undefined) {
          answered++
          expect(general).toEqual({ token: lone })
        }
      }),
      { numRuns: 5000 }
    )
    expect(answered).toBeGreaterThan(100)
  })

  // requestCookie reads the CSRF cookie on every session read (the browser binding) and must be
  // exactly the parsed header's entry, for the same browser-like headers, look-alikes and doubles included.
  it("requestCookie answers exactly requestCookies(…)[name]", () => {
    const CSRF = "__Host-authjs.csrf-token"
    const names = [CSRF, CSRF, `${CSRF}.0`, `x${CSRF}`, `${CSRF}x`, PLAIN, SECURE, "theme"]
    const value = fc.array(fc.constantFrom("abc|0f", "eyJ.x_-", "%41", "%zz", " ", '"', "=", CSRF, ` ${CSRF}=v`, `;${CSRF}=v`, "é", ""), { maxLength: 4 }).map((pieces) => pieces.join(""))
    const pair = fc.tuple(fc.constantFrom(...names), fc.constantFrom("=", "=", " =", ""), value).map(([name, equals, text]) => `${name}${equals}${text}`)
    const header = fc.tuple(fc.array(pair, { minLength: 1, maxLength: 5 }), fc.constantFrom("; ", ";", " ; ")).map(([pairs, separator]) => pairs.join(separator))
    let found = 0
    fc.assert(
      fc.property(header, (text) => {
        const request = new Request("https://app.example.com/", { headers: { cookie: text } })
        const one = requestCookie(request, CSRF)
        expect(one).toBe(requestCookies(request)[CSRF])
        if (one !== undefined) found++
      }),
      { numRuns: 3000 }
    )
    expect(found).toBeGreaterThan(100)
  })

  it("reads names that are not cookie tokens the general way", () => {
    expect(readTokenCookie("a b=1; c=2", "a b")).toBe("1")
    expect(() => readTokenCookie("a b=1; a b=2", "a b")).toThrow("more than once")
  })
})
