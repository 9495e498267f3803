/**
 * Session cookies on the wire, both ways. A token can exceed the 4096 bytes browsers keep per
 * cookie, so it is split into `name.0`, `name.1`, … and joined again on read. Reading is strict:
 * only the exact name or `name.<n>` belongs to a token, and a missing chunk invalidates it.
 * Writing keeps every `Set-Cookie` under 4096 bytes and expires chunks the request still holds
 * but the new value no longer needs, so a shorter token never inherits a stale tail.
 */
import { parseCookie, stringifySetCookie, type SerializeOptions } from "cookie"
import { InvalidOptionError, InvalidTokenError } from "../errors.js"
import { MAX_TOKEN_LENGTH } from "./compact.js"
import { headerReader, type RequestLike } from "./headers.js"

/**
 * The byte limit every `Set-Cookie` header line, `Set-Cookie: ` included, stays under. Browsers
 * keep cookies up to 4096 bytes (RFC 6265 §6.1); staying under it for the whole line leaves room
 * for the attributes in every browser.
 *
 * @example
 * ```ts
 * import { setCookieHeaders, SET_COOKIE_LIMIT } from "latchkey/jwt"
 * const values = setCookieHeaders({ name: "authjs.session-token", value: token })
 * values.every((value) => `Set-Cookie: ${value}`.length < SET_COOKIE_LIMIT) // true, however long the token
 * ```
 */
export const SET_COOKIE_LIMIT = 4096

const HEADER_PREFIX_LENGTH = "Set-Cookie: ".length

/**
 * How many chunks a reader accepts: enough for {@link MAX_TOKEN_LENGTH} at the smallest chunk.
 *
 * @example
 * ```ts
 * import { MAX_CHUNKS, setCookieHeaders } from "latchkey/jwt"
 * const chunks = setCookieHeaders({ name: "authjs.session-token", value: token }).length
 * console.log(`${chunks} of at most ${MAX_CHUNKS} cookies`) // a value that needs more throws InvalidOptionError
 * ```
 */
export const MAX_CHUNKS = 32

const CHUNK_SUFFIX = /^(0|[1-9][0-9]{0,2})$/

/**
 * Attributes for a session cookie. Unset ones take the safe defaults noted.
 *
 * @example
 * ```ts
 * import { setCookieHeaders, type SessionCookieOptions } from "latchkey/jwt"
 * const options: SessionCookieOptions = { domain: "example.com", sameSite: "strict", maxAge: 30 * 24 * 60 * 60 }
 * const values = setCookieHeaders({ name: "__Secure-authjs.session-token", value: token, options })
 * ```
 */
export interface SessionCookieOptions {
  /** Default "/". */
  path?: string
  domain?: string
  /** Default true; required, and forced, for `__Secure-` and `__Host-` names. */
  secure?: boolean
  /** Default true. */
  httpOnly?: boolean
  /** Default "lax". */
  sameSite?: "lax" | "strict" | "none"
  /** Lifetime in seconds. */
  maxAge?: number
  expires?: Date
  partitioned?: boolean
}

/** Cookie names that appear more than once in a header, kept on the parsed record. */
export const DUPLICATED = Symbol("latchkey.duplicatedCookies")

/** Parsed cookies, remembering which names the header repeated. */
export type ParsedCookies = Record<string, string | undefined> & { [DUPLICATED]?: Set<string> }

/**
 * Parses a `Cookie` header; never throws, whatever the input. `cookie` keeps the first of repeated
 * names silently, so the repeated names are recorded: a repeated session cookie is a sign of
 * cookie tossing, and must not be read.
 */
export function parseCookieHeader(header: string | null): ParsedCookies {
  if (!header) return {}
  const parsed: ParsedCookies = parseCookie(header)
  const seen = new Set<string>()
  const duplicated = new Set<string>()
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=")
    const name = (at === -1 ? pair : pair.slice(0, at)).trim()
    if (seen.has(name)) duplicated.add(name)
    seen.add(name)
  }
  if (duplicated.size > 0) parsed[DUPLICATED] = duplicated
  return parsed
}

/** The cookies of a request, parsed. */
export function requestCookies(req: RequestLike): Record<string, string | undefined> {
  return parseCookieHeader(headerReader(req)("cookie", "; "))
}

/**
 * One cookie of a request: exactly `requestCookies(req)[name]`, without parsing the whole header
 * when `name` occurs once, as the pair's own name (see {@link loneTokenCookie}). Every session read
 * asks for the CSRF cookie next to a header that holds the session's kilobyte of JWE.
 */
export function requestCookie(req: RequestLike, name: string): string | undefined {
  const header = headerReader(req)("cookie", "; ")
  if (!header) return undefined
  const at = header.indexOf(name)
  if (at === -1) return undefined
  return loneTokenCookie(header, name, at) ?? parseCookieHeader(header)[name]
}

function chunkIndex(cookieName: string, name: string): number | undefined {
  if (!cookieName.startsWith(name) || cookieName.charCodeAt(name.length) !== 46 /* . */) return undefined
  const suffix = cookieName.slice(name.length + 1)
  return CHUNK_SUFFIX.test(suffix) ? Number(suffix) : undefined
}

/**
 * The token stored under `name`, joined from its chunks when chunked. `undefined` when there is
 * none. Throws {@link index!InvalidTokenError} (`invalid_chunks`) for a gap or too many chunks.
 */
export function readChunkedCookie(cookies: ParsedCookies, name: string): string | undefined {
  const duplicated = cookies[DUPLICATED]
  // A session sent twice under one name, or whole and chunked at once, came from two places
  // (cookie tossing from a sibling domain); neither copy can be trusted to be the user's.
  if (duplicated && [...duplicated].some((cookieName) => cookieName === name || chunkIndex(cookieName, name) !== undefined)) {
    throw new InvalidTokenError("invalid_chunks", "The session cookie was sent more than once.")
  }
  const whole = cookies[name]
  const chunkNames = Object.keys(cookies).filter((cookieName) => chunkIndex(cookieName, name) !== undefined)
  if (whole && chunkNames.length > 0) throw new InvalidTokenError("invalid_chunks", "The session cookie was sent both whole and in chunks.")
  if (whole) return whole
  const chunks: string[] = []
  let count = 0
  for (const cookieName of chunkNames) {
    const index = chunkIndex(cookieName, name)!
    if (index >= MAX_CHUNKS) throw new InvalidTokenError("invalid_chunks", `The session cookie has more than ${MAX_CHUNKS} chunks.`)
    chunks[index] = cookies[cookieName] ?? ""
    count++
  }
  if (count === 0) return undefined
  if (count !== chunks.length) throw new InvalidTokenError("invalid_chunks", "The session cookie is missing a chunk.")
  const joined = chunks.join("")
  return joined === "" ? undefined : joined
}

/** Names the single-pass reader handles: RFC 6265 tokens. Anything else takes the general path. */
const TOKEN_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/**
 * The last two names found to be tokens: a reader asks about the same one or two names on every
 * request (the session cookie, and the provider token cookie next to it).
 */
let lastTokenName = ""
let otherTokenName = ""

function isTokenName(name: string): boolean {
  if (name === lastTokenName || name === otherTokenName) return true
  if (!TOKEN_NAME.test(name)) return false
  otherTokenName = lastTokenName
  lastTokenName = name
  return true
}

/** `cookie`'s value decoding: percent-decoded when it can be, else as sent. */
function decodeValue(value: string): string {
  if (value.indexOf("%") === -1) return value
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

function isSpaceOrTab(code: number): boolean {
  return code === 32 || code === 9
}

/** ASCII white space as `String.prototype.trim` sees it: tab, LF, VT, FF, CR and space. */
function isAsciiSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13)
}

/**
 * The name `parseCookieHeader` records for the pair `header[start, end)` (before the first `=`,
 * `trim()`med) when it is `name` or a chunk of it, else undefined. The trim is done in place for
 * ASCII white space, so no string is made for the unrelated pairs; a pair that may end in other
 * white space (a non-ASCII character at an edge) is trimmed by `trim()` itself.
 */
function recordedName(header: string, start: number, end: number, name: string): string | undefined {
  while (start < end && isAsciiSpace(header.charCodeAt(start))) start++
  while (end > start && isAsciiSpace(header.charCodeAt(end - 1))) end--
  if (header.charCodeAt(start) > 126 || header.charCodeAt(end - 1) > 126) {
    const trimmed = header.slice(start, end).trim()
    return trimmed === name || chunkIndex(trimmed, name) !== undefined ? trimmed : undefined
  }
  if (end - start < name.length || !header.startsWith(name, start)) return undefined
  if (end - start === name.length) return name
  const candidate = header.slice(start, end)
  return chunkIndex(candidate, name) !== undefined ? candidate : undefined
}

/** The value `cookie` reads from `header[start, end)`: space and tab trimmed, percent-decoded. */
function cookieValue(header: string, start: number, end: number): string {
  while (start < end && isSpaceOrTab(header.charCodeAt(start))) start++
  while (end > start && isSpaceOrTab(header.charCodeAt(end - 1))) end--
  return decodeValue(header.slice(start, end))
}

/**
 * The token when the header holds it the way a browser sends one session: `name=value` at `at`,
 * the first place `name` occurs, as the header's first pair or right after `;` or `; `, and `name`
 * nowhere after that pair. The single-pass reader below then reads this pair alone, as a whole
 * cookie, so its value is the answer; it is left to read the header when this answers undefined
 * (another shape, or an empty value), so undefined here never means "no token".
 */
export function loneTokenCookie(header: string, name: string, at: number): string | undefined {
  const equals = at + name.length
  if (header.charCodeAt(equals) !== 61 /* = */) return undefined
  if (at !== 0) {
    const before = header.charCodeAt(at - 1)
    if (before !== 59 /* ; */ && !(before === 32 /* space */ && header.charCodeAt(at - 2) === 59)) return undefined
  }
  let end = header.indexOf(";", equals)
  if (end === -1) end = header.length
  if (header.indexOf(name, end) !== -1) return undefined
  const value = cookieValue(header, equals + 1, end)
  return value === "" ? undefined : value
}

/**
 * The token stored under `name` in a `Cookie` header: exactly what
 * `readChunkedCookie(parseCookieHeader(header), name)` answers, and throws what it throws, without
 * parsing the cookies that cannot belong to the token. Every cookie whose name holds `name` sits
 * in a `;`-separated pair where `indexOf(name)` lands, so only those pairs are read; each is read
 * both the way `cookie` reads a pair (first of a name wins, space and tab trimmed, percent-decoded)
 * and the way repeated names are recorded (the name before the first `=`, `trim()`med). The
 * session is read on every request, and most of a real header is analytics and preferences.
 */
export function readTokenCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined
  if (!isTokenName(name)) return readChunkedCookie(parseCookieHeader(header), name)
  let at = header.indexOf(name)
  if (at === -1) return undefined
  const lone = loneTokenCookie(header, name, at)
  if (lone !== undefined) return lone
  let sentTwice = false
  // Sets, not arrays: a header of thousands of pairs named like chunks must cost linear time, not quadratic.
  let relevantNames: Set<string> | undefined
  let whole: string | undefined
  // Each chunk's value by its index, in the order first seen (the first of a name wins).
  let chunkValues: Map<number, string> | undefined
  while (at !== -1) {
    const start = header.lastIndexOf(";", at) + 1
    let end = header.indexOf(";", at)
    if (end === -1) end = header.length
    let equals = header.indexOf("=", start)
    if (equals >= end) equals = -1
    const recorded = recordedName(header, start, equals === -1 ? end : equals, name)
    if (recorded !== undefined) {
      if (relevantNames?.has(recorded)) sentTwice = true
      else (relevantNames ??= new Set()).add(recorded)
    }
    if (equals !== -1) {
      let keyStart = start
      let keyEnd = equals
      while (keyStart < keyEnd && isSpaceOrTab(header.charCodeAt(keyStart))) keyStart++
      while (keyEnd > keyStart && isSpaceOrTab(header.charCodeAt(keyEnd - 1))) keyEnd--
      const keyLength = keyEnd - keyStart
      if (keyLength >= name.length && header.startsWith(name, keyStart)) {
        const key = keyLength === name.length ? name : header.slice(keyStart, keyEnd)
        const index = key === name ? undefined : chunkIndex(key, name)
        if (key === name || index !== undefined) {
          if (index === undefined) {
            whole ??= cookieValue(header, equals + 1, end)
          } else if (!chunkValues?.has(index)) {
            ;(chunkValues ??= new Map()).set(index, cookieValue(header, equals + 1, end))
          }
        }
      }
    }
    at = header.indexOf(name, end)
  }
  if (sentTwice) throw new InvalidTokenError("invalid_chunks", "The session cookie was sent more than once.")
  if (whole && chunkValues !== undefined) throw new InvalidTokenError("invalid_chunks", "The session cookie was sent both whole and in chunks.")
  if (whole) return whole
  if (chunkValues === undefined) return undefined
  const chunks: string[] = []
  for (const [index, value] of chunkValues) {
    if (index >= MAX_CHUNKS) throw new InvalidTokenError("invalid_chunks", `The session cookie has more than ${MAX_CHUNKS} chunks.`)
    chunks[index] = value
  }
  if (chunkValues.size !== chunks.length) throw new InvalidTokenError("invalid_chunks", "The session cookie is missing a chunk.")
  const joined = chunks.join("")
  return joined === "" ? undefined : joined
}

/** The names of the cookies in `cookies` that belong to a token stored under `name`. */
export function tokenCookieNames(cookies: Record<string, string | undefined>, name: string): string[] {
  return Object.keys(cookies).filter((cookieName) => cookieName === name || chunkIndex(cookieName, name) !== undefined)
}

function serializeOptions(name: string, options: SessionCookieOptions): SerializeOptions {
  const prefixed = name.startsWith("__Secure-") || name.startsWith("__Host-")
  if (prefixed && options.secure === false) {
    throw new InvalidOptionError("options.secure", `A cookie named ${name} must be Secure.`)
  }
  const { path = "/", secure = true, httpOnly = true, sameSite = "lax", ...rest } = options
  if (sameSite === "none" && !secure) throw new InvalidOptionError("options.sameSite", "SameSite=None requires Secure.")
  // The value is already percent-encoded where needed, by chunkValue below.
  return { ...rest, path, secure, httpOnly, sameSite, encode: (value) => value }
}

function serialize(name: string, value: string, options: SerializeOptions): string {
  try {
    return stringifySetCookie(name, value, options)
  } catch (cause) {
    throw new InvalidOptionError("name", "The cookie name or one of its attributes is not allowed in a Set-Cookie header.", { cause })
  }
}

/** The characters encodeURIComponent leaves alone: such a value can be sliced anywhere. */
const URI_UNRESERVED = /^[A-Za-z0-9\-_.!~*'()]*$/

/** Splits `value` so each piece, percent-encoded, fits `budget`, never inside a character. */
function splitEncoded(value: string, budget: (index: number) => number): string[] {
  if (URI_UNRESERVED.test(value)) {
    const pieces: string[] = []
    for (let at = 0; at < value.length; ) {
      const size = budget(pieces.length)
      pieces.push(value.slice(at, at + size))
      at += size
    }
    return pieces
  }
  const pieces: string[] = []
  let current = ""
  for (const character of value) {
    const encoded = encodeURIComponent(character)
    if (current.length + encoded.length > budget(pieces.length)) {
      pieces.push(current)
      current = ""
    }
    current += encoded
  }
  if (current !== "") pieces.push(current)
  return pieces
}

/**
 * What {@link setCookieHeaders} takes.
 *
 * @example
 * ```ts
 * import { setCookieHeaders, type SetCookieParams } from "latchkey/jwt"
 * // signing out: expire the session cookie and every chunk of it the request holds
 * const params: SetCookieParams = { name: "__Secure-authjs.session-token", value: null, request }
 * for (const value of setCookieHeaders(params)) response.headers.append("set-cookie", value)
 * ```
 */
export interface SetCookieParams {
  /** The cookie name, such as `__Secure-authjs.session-token`. */
  name: string
  /** The token to store; `null` (or an empty string) removes it. */
  value: string | null
  /** Cookie attributes. */
  options?: SessionCookieOptions
  /** The request being answered, so chunks it holds that the new value does not use are expired. */
  request?: RequestLike
}

/**
 * The `Set-Cookie` header values that store `value` under `name`: one cookie when it fits, else
 * `name.0`, `name.1`, … each under {@link SET_COOKIE_LIMIT} bytes as a full header line. Chunks
 * (or a whole cookie) that the request holds and this write does not replace are expired, and so
 * is everything under `name` when `value` is `null`.
 *
 * Exported from `latchkey/jwt`.
 *
 * @example
 * ```ts
 * import { encode, setCookieHeaders } from "latchkey/jwt"
 * const name = "__Secure-authjs.session-token"
 * const token = await encode({ token: { sub: "42" }, secret, salt: name })
 * const response = new Response(null, { status: 302, headers: { location: "/" } })
 * for (const value of setCookieHeaders({ name, value: token, options: { maxAge: 2592000 }, request })) {
 *   response.headers.append("set-cookie", value)
 * }
 * ```
 */
export function setCookieHeaders(params: SetCookieParams): string[] {
  const { name, value, options = {}, request } = params
  if (typeof name !== "string" || name === "") throw new InvalidOptionError("name", "The cookie name must be a non-empty string.")
  if (value !== null && typeof value !== "string") throw new InvalidOptionError("value", "The cookie value must be a string or null.")
  const attributes = serializeOptions(name, options)
  const written = new Map<string, string>()
  const removing = value === null || value === ""
  if (!removing) {
    const whole = serialize(name, "", attributes)
    const wholeBudget = SET_COOKIE_LIMIT - 1 - HEADER_PREFIX_LENGTH - whole.length
    const pieces = splitEncoded(value, () => wholeBudget)
    if (pieces.length === 1) {
      written.set(name, serialize(name, pieces[0]!, attributes))
    } else {
      const chunkBudget = (index: number) =>
        SET_COOKIE_LIMIT - 1 - HEADER_PREFIX_LENGTH - serialize(`${name}.${index}`, "", attributes).length
      const chunks = splitEncoded(value, chunkBudget)
      if (chunks.length > MAX_CHUNKS) throw new InvalidOptionError("value", `The value needs more than ${MAX_CHUNKS} cookie chunks.`)
      chunks.forEach((piece, index) => {
        written.set(`${name}.${index}`, serialize(`${name}.${index}`, piece, attributes))
      })
    }
  }
  const expired = { ...attributes, maxAge: 0, expires: new Date(0) }
  const stale = request ? tokenCookieNames(requestCookies(request), name).filter((cookieName) => !written.has(cookieName)) : []
  if (removing && !stale.includes(name)) stale.unshift(name)
  return [...written.values(), ...stale.map((cookieName) => serialize(cookieName, "", expired))]
}
