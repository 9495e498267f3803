import { LatchkeyError } from "../errors.js"
import type { Awaitable, JWT, LoggerInstance } from "../types.js"
import type { JWTDecodeParams } from "./codec.js"
import { readTokenCookie } from "./cookies.js"
import { headerReader, type RequestLike } from "./headers.js"
import { codec } from "./runtime.js"
import { secretsOrEnv, type SecretInput } from "./secrets.js"

/**
 * The session cookie's name over plain HTTP. Also the default salt of tokens stored in it.
 *
 * @example
 * ```ts
 * import { getToken, SESSION_COOKIE_NAME } from "latchkey/jwt"
 * // "authjs.session-token": read only this cookie, with its own name as the salt
 * const token = await getToken({ req: request, cookieName: SESSION_COOKIE_NAME })
 * ```
 */
export const SESSION_COOKIE_NAME = "authjs.session-token"
/**
 * The session cookie's name over HTTPS. Also the default salt of tokens stored in it.
 *
 * @example
 * ```ts
 * import { encode, setCookieHeaders, SECURE_SESSION_COOKIE_NAME as name } from "latchkey/jwt"
 * const value = await encode({ token: { sub: "42" }, secret, salt: name }) // "__Secure-authjs.session-token"
 * const headers = setCookieHeaders({ name, value })
 * ```
 */
export const SECURE_SESSION_COOKIE_NAME = "__Secure-authjs.session-token"

/**
 * A replacement for `decode`, such as {@link decodeNextAuthV4}.
 *
 * @example
 * ```ts
 * import { decode, getToken, type TokenDecoder } from "latchkey/jwt"
 * const adminsOnly: TokenDecoder = async (params) => {
 *   const claims = await decode(params)
 *   return claims?.role === "admin" ? claims : null
 * }
 * const token = await getToken({ req: request, decode: adminsOnly })
 * ```
 */
export type TokenDecoder<Payload = JWT> = (params: JWTDecodeParams) => Awaitable<Payload | null>

/**
 * What {@link getToken} takes.
 *
 * @example
 * ```ts
 * import { getToken, type GetTokenParams } from "latchkey/jwt"
 * const options = { secureCookie: true, logger: console } satisfies Omit<GetTokenParams, "req">
 * const token = await getToken({ req: request, ...options }) // only the __Secure- cookie; rejections logged
 * ```
 */
export interface GetTokenParams<Payload = JWT> {
  /** The incoming request: a `Request`, a `Headers`, or `{ headers }` (a `Headers` or a plain record). */
  req: RequestLike
  /** Secret(s), newest first. Default: `AUTH_SECRET_3`…`_1`, then `AUTH_SECRET`, from the environment. */
  secret?: SecretInput
  /** The HKDF salt. Default: the name of the cookie the token was found in. */
  salt?: string
  /** Read only this cookie. Default: `__Secure-authjs.session-token`, then `authjs.session-token`. */
  cookieName?: string
  /** `true` reads only the `__Secure-` name, `false` only the plain one; unset reads both. */
  secureCookie?: boolean
  /** Answer the raw token string, without decoding. No secret is needed then. */
  raw?: boolean
  /** Replaces latchkey's `decode`. */
  decode?: TokenDecoder<Payload>
  /** Receives, at debug level, why a token was rejected: an error code, never the token. */
  logger?: LoggerInstance
}

/** `Bearer <token>`, scheme case-insensitive, URL-decoded. `null` when malformed. */
function bearerToken(authorization: string | null): string | null | undefined {
  if (authorization === null) return undefined
  const match = /^([A-Za-z]+) +([^ ]+) *$/.exec(authorization)
  if (match === null || match[1]!.toLowerCase() !== "bearer") return undefined
  try {
    return decodeURIComponent(match[2]!)
  } catch {
    return null
  }
}

function describe(error: unknown): { code: string; reason?: string } {
  if (error instanceof LatchkeyError) {
    const reason = (error as { reason?: unknown }).reason
    return typeof reason === "string" ? { code: error.code, reason } : { code: error.code }
  }
  return { code: "ERR_DECODE_FAILED" }
}

interface FoundToken {
  token: string
  salt: string
  /** Where it came from: a cookie name or `authorization`. */
  source: string
}

/** Adds the token in cookie `name` to `found`; a refused one is logged instead. */
function findInCookie(found: FoundToken[], cookies: string | null, name: string, salt: string | undefined, logger: LoggerInstance | undefined): void {
  try {
    const token = readTokenCookie(cookies, name)
    // Each name keeps its own salt, so a __Secure- token is never opened with the plain name's salt.
    if (token !== undefined) found.push({ token, salt: salt ?? name, source: name })
  } catch (error) {
    logger?.debug?.("getToken: session cookie rejected", { ...describe(error), source: name })
  }
}

function findTokens(params: GetTokenParams<unknown>, names: readonly [string, string]): FoundToken[] | null {
  const { cookieName, secureCookie, salt, logger } = params
  const header = headerReader(params.req)
  const cookies = header("cookie", "; ")
  // One name (`cookieName`, or the one `secureCookie` picks) or both in turn: at most two, so
  // they are held in two variables rather than a list made on every request.
  const firstName = cookieName !== undefined ? cookieName : secureCookie === false ? names[1] : names[0]
  const secondName = cookieName !== undefined || secureCookie === true || secureCookie === false ? undefined : names[1]
  const found: FoundToken[] = []
  findInCookie(found, cookies, firstName, salt, logger)
  if (secondName !== undefined) findInCookie(found, cookies, secondName, salt, logger)
  if (found.length > 0) return found
  const bearer = bearerToken(header("authorization", ", "))
  if (bearer === null) return null
  if (bearer === undefined) return found
  // Tried with each name's salt, as a cookie would have been.
  found.push({ token: bearer, salt: salt ?? firstName, source: "authorization" })
  if (secondName !== undefined) found.push({ token: bearer, salt: salt ?? secondName, source: "authorization" })
  return found
}

/** The shared body of {@link getToken} and `getNextAuthV4Token`. */
export async function readSessionToken<Payload>(
  params: GetTokenParams<Payload>,
  names: readonly [string, string],
  defaultDecode: TokenDecoder<Payload>
): Promise<Payload | string | null> {
  // Checked (and read from the environment when unset) once; a single string is passed on as
  // it is, so decode takes it without building a list.
  const given = params.secret
  const secret = typeof given === "string" && given !== "" ? given : params.raw ? undefined : secretsOrEnv(given)
  const found = findTokens(params, names)
  if (found === null || found.length === 0) return null
  if (params.raw) return found[0]!.token
  const custom = params.decode ?? null
  for (let i = 0; i < found.length; i++) {
    const { token, salt, source } = found[i]!
    try {
      // The built-in decoder answers without a promise when it can: then nothing is awaited,
      // which spares a microtask turn. A custom decode is awaited as it always was.
      const decoded = custom === null ? defaultDecode({ token, secret: secret!, salt }) : await custom({ token, secret: secret!, salt })
      const payload = decoded instanceof Promise ? await decoded : decoded
      if (payload !== null && payload !== undefined) return payload
    } catch (error) {
      params.logger?.debug?.("getToken: token rejected", { ...describe(error), source })
    }
  }
  return null
}

const SESSION_COOKIE_NAMES = [SECURE_SESSION_COOKIE_NAME, SESSION_COOKIE_NAME] as const

/** getToken's decoder: `decode`, without a promise when none is needed. Made once, not per call. */
function decodeSessionToken(params: JWTDecodeParams): Awaitable<JWT | null> {
  return codec.decodeNow<JWT>("authjs", params)
}

/**
 * Reads the session token of a request. It looks for the session cookie, joining chunks
 * (`name.0`, `name.1`, …), then falls back to `Authorization: Bearer <token>`, and decodes what it
 * finds. With neither `cookieName` nor `secureCookie` set, it tries `__Secure-authjs.session-token`
 * and then `authjs.session-token`, each with its own salt, so a token behind HTTPS is found
 * whatever the app thinks its protocol is. Any decoding failure answers `null`; the reason code
 * goes to `logger.debug`.
 *
 * Exported from `latchkey/jwt`.
 *
 * @throws {@link index!MissingSecretError} when no secret is given or set in the environment (unless
 * `raw`); {@link index!InvalidOptionError} when `req` is not a request shape.
 *
 * @example
 * ```ts
 * import { getToken } from "latchkey/jwt"
 * export async function GET(request: Request) {
 *   const token = await getToken({ req: request }) // secret from AUTH_SECRET
 *   if (!token) return new Response("Unauthorized", { status: 401 })
 *   return Response.json({ user: token.sub })
 * }
 * ```
 */
export function getToken<Payload = JWT>(params: GetTokenParams<Payload> & { raw: true }): Promise<string | null>
export function getToken<Payload = JWT>(params: GetTokenParams<Payload> & { raw?: false }): Promise<Payload | null>
export function getToken<Payload = JWT>(params: GetTokenParams<Payload>): Promise<Payload | string | null>
export function getToken<Payload = JWT>(params: GetTokenParams<Payload>): Promise<Payload | string | null> {
  return readSessionToken(params, SESSION_COOKIE_NAMES, decodeSessionToken as TokenDecoder<Payload>)
}
