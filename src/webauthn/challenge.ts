/**
 * The passkey challenge: random, sealed into a short-lived cookie with the `latchkey/jwt` codec
 * (salted with the cookie name), and bound to the ceremony (register or authenticate), the
 * provider and, for a registration, the user it registers for. No database row is written for it.
 *
 * A cookie is cleared when it is used, but a captured (cookie, response) pair could be sent again
 * before it expires, from anywhere. So each challenge, once used, is also remembered in process
 * until it expires, and a second use is refused as a replay. That memory is per process: a replay
 * sent to another instance within the challenge's lifetime is caught there only by the signature
 * counter (for authenticators that keep one). SECURITY.md says this in full.
 */
import { WebAuthnError } from "../errors.js"
import { encodeBase64url } from "../lib/base64url.js"
import { decode } from "../jwt/decode.js"
import { encode } from "../jwt/encode.js"
import { requestCookies, setCookieHeaders } from "../jwt/cookies.js"
import type { PasskeyHost } from "./host.js"

/** Which half of the ceremony a challenge was issued for. */
export type Ceremony = "register" | "authenticate"

/** Who a registration challenge registers for: the signed-in user, or a sign-up's new address. */
export type Registrant = { userId: string } | { email: string; name: string }

/** What the challenge cookie holds. */
export interface SealedChallenge {
  challenge: string
  ceremony: Ceremony
  provider: string
  registrant?: Registrant
}

/** The challenge cookie's name: `__Host-` over https, so only this host can set it. */
export function challengeCookieName(secure: boolean): string {
  return secure ? "__Host-latchkey.webauthn-challenge" : "latchkey.webauthn-challenge"
}

/** Same-origin fetches only: the options GET and the callback POST are the page's own requests. */
function cookieOptions(secure: boolean, maxAge: number) {
  return { path: "/", secure, httpOnly: true, sameSite: "strict" as const, maxAge }
}

/** The lifetime of a challenge, in whole seconds: the provider's ceremony timeout. */
export function challengeLifetime(timeoutMs: number): number {
  return Math.max(1, Math.ceil(timeoutMs / 1000))
}

/** A fresh challenge: 32 random bytes, base64url. */
export function newChallenge(): string {
  return encodeBase64url(crypto.getRandomValues(new Uint8Array(32)))
}

/** Seals a challenge into its Set-Cookie value(s). */
export async function sealChallenge(host: Pick<PasskeyHost, "secret" | "secure">, sealed: SealedChallenge, lifetime: number): Promise<string[]> {
  const name = challengeCookieName(host.secure)
  const token = await encode<SealedChallenge>({ token: sealed, secret: host.secret, salt: name, maxAge: lifetime })
  return setCookieHeaders({ name, value: token, options: cookieOptions(host.secure, lifetime) })
}

/** Set-Cookie values that clear the challenge cookie. */
export function clearChallenge(host: Pick<PasskeyHost, "secure">): string[] {
  return setCookieHeaders({ name: challengeCookieName(host.secure), value: null, options: cookieOptions(host.secure, 0) })
}

/** The most used challenges one process remembers; past it, the oldest are forgotten first (and it is logged). */
export const MAX_REMEMBERED_CHALLENGES = 50_000

/** Challenges used in this process, each kept until it expires: insertion order is expiry order per lifetime. */
export class UsedChallenges {
  private readonly used = new Map<string, number>()
  private warned = false

  /** Records `challenge` as used until `expiresAt` (ms); false when it was used already. */
  use(challenge: string, expiresAt: number, onOverflow: () => void): boolean {
    const now = Date.now()
    for (const [key, until] of this.used) {
      if (until > now) break
      this.used.delete(key)
    }
    const until = this.used.get(challenge)
    if (until !== undefined && until > now) return false
    if (this.used.size >= MAX_REMEMBERED_CHALLENGES) {
      this.used.delete(this.used.keys().next().value!)
      if (!this.warned) onOverflow()
      this.warned = true
    }
    this.used.set(challenge, expiresAt)
    return true
  }
}

/** One memory per `createAuth` (the host's `instance`). */
const memories = new WeakMap<object, UsedChallenges>()

function memoryOf(instance: object): UsedChallenges {
  let memory = memories.get(instance)
  if (!memory) memories.set(instance, (memory = new UsedChallenges()))
  return memory
}

const CEREMONIES = new Set<unknown>(["register", "authenticate"])

/**
 * Reads, checks and uses up the request's challenge for `ceremony` with `provider`: missing,
 * undecodable or expired, made for another ceremony or provider, or used before, it is refused
 * with a {@link WebAuthnError}. The caller clears the cookie in its answer, whatever happens.
 */
export async function useChallenge(host: PasskeyHost, ceremony: Ceremony, provider: string): Promise<SealedChallenge> {
  const name = challengeCookieName(host.secure)
  const token = requestCookies(host.request)[name]
  if (!token) throw new WebAuthnError("challenge_missing", "No passkey challenge cookie: the options were not fetched in this browser, or it expired.")
  let sealed: (SealedChallenge & { exp?: unknown }) | null
  try {
    sealed = await decode<SealedChallenge>({ token, secret: host.secret, salt: name })
  } catch (error) {
    throw new WebAuthnError("challenge_invalid", "The passkey challenge cookie is expired or was not made by this app.", { cause: error })
  }
  if (sealed === null || typeof sealed.challenge !== "string" || !CEREMONIES.has(sealed.ceremony) || typeof sealed.provider !== "string" || typeof sealed.exp !== "number") {
    throw new WebAuthnError("challenge_invalid", "The passkey challenge cookie does not hold a challenge.")
  }
  if (sealed.ceremony !== ceremony || sealed.provider !== provider) {
    throw new WebAuthnError("challenge_mismatch", `The passkey challenge was issued for another ceremony or provider (${sealed.ceremony} with "${sealed.provider.slice(0, 64)}").`)
  }
  const fresh = memoryOf(host.instance).use(sealed.challenge, sealed.exp * 1000, () =>
    host.logger.warn("WEBAUTHN_CHALLENGE_MEMORY_FULL", { message: `more than ${MAX_REMEMBERED_CHALLENGES} passkey challenges used within their lifetime; the oldest are forgotten early` })
  )
  if (!fresh) throw new WebAuthnError("challenge_replayed", "This passkey challenge was used already.")
  return sealed
}
