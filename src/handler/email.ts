/**
 * Email ("magic link") sign-in: a single-use token, stored only as a hash through the adapter,
 * valid until the provider's `maxAge`, sent as a link to the callback.
 */
import { EMAIL_METHODS, withAdapterMethods } from "../oauth/adapter.js"
import { encodeBase64url } from "../jwt/base64url.js"
import type { EmailConfig, AppProvider } from "../providers/types.js"
import type { RequestContext } from "./config.js"
import { sha256 } from "./digest.js"
import type { SignInOutcome } from "./complete-sign-in.js"

/** What is stored of a link's token: its SHA-256 with the secret, never the token. */
function hashToken(token: string, secret: string): Promise<string> {
  return sha256(`${token}${secret}`)
}

/** RFC 5321's limits: 64 octets of local part, 255 of domain, 320 in all (checked before anything else runs). */
const MAX_EMAIL_LENGTH = 320
const MAX_LOCAL_LENGTH = 64
const MAX_LABEL_LENGTH = 63

/**
 * Characters no plain address contains: white space and controls, and the separators that would
 * let one field carry a display name, a comment, a route or a second recipient. One character
 * class and no quantifier, so a test is a single linear scan.
 */
const FORBIDDEN = /[\s\x00-\x1f\x7f,;<>"()[\]\\:]/

function countAt(value: string): number {
  let count = 0
  for (let index = value.indexOf("@"); index !== -1; index = value.indexOf("@", index + 1)) count++
  return count
}

/**
 * Whether `value` is exactly one plain address: one `@`, a local part, and a domain of two or more
 * non-empty labels. Parsed by splitting, with no backtracking pattern, so its cost is linear in
 * the (already bounded) length.
 */
function isPlainAddress(value: unknown): value is string {
  if (typeof value !== "string" || value.length > MAX_EMAIL_LENGTH || FORBIDDEN.test(value) || countAt(value) !== 1) return false
  const at = value.indexOf("@")
  if (at === 0 || at > MAX_LOCAL_LENGTH) return false
  const labels = value.slice(at + 1).split(".")
  return labels.length >= 2 && labels.every((label) => label.length > 0 && label.length <= MAX_LABEL_LENGTH)
}

/**
 * The address in normalised form, or undefined when it is not exactly one plain address. The
 * length is checked first, so neither a pattern nor the provider's `normalizeIdentifier` ever sees
 * an oversized field; a character that NFKC-folds to `@` (such as U+FF20 or U+FE6B) is refused
 * before any callback or sender can read the address.
 */
export function normalizeEmail(provider: EmailConfig, raw: string | null): string | undefined {
  if (typeof raw !== "string" || raw === "" || raw.length > MAX_EMAIL_LENGTH) return undefined
  if (countAt(raw.normalize("NFKC")) !== countAt(raw)) return undefined
  const value = provider.normalizeIdentifier ? provider.normalizeIdentifier(raw) : raw.trim().toLowerCase()
  return isPlainAddress(value) ? value : undefined
}

function adapterOf(context: RequestContext, provider: EmailConfig) {
  return withAdapterMethods(context.config.adapter, EMAIL_METHODS, `provider "${provider.id}" (email sign-in)`)
}

/** Creates the token, stores its hash, and sends the link. */
export async function sendSignInLink(context: RequestContext, provider: EmailConfig & AppProvider, email: string, callbackUrl: string | undefined): Promise<void> {
  const adapter = adapterOf(context, provider)
  const token = provider.generateVerificationToken ? await provider.generateVerificationToken() : encodeBase64url(crypto.getRandomValues(new Uint8Array(32)))
  const expires = new Date(Date.now() + (provider.maxAge ?? 24 * 60 * 60) * 1000)
  await adapter.createVerificationToken({ identifier: email, token: await hashToken(token, context.secret[0]!), expires })
  const url = new URL(provider.callbackUrl)
  url.searchParams.set("token", token)
  url.searchParams.set("email", email)
  if (callbackUrl) url.searchParams.set("callbackUrl", callbackUrl)
  await provider.sendVerificationRequest({ identifier: email, url: url.href, expires, provider, token, theme: context.config.theme ?? {}, request: context.request })
}

/** Consumes the link's token; answers the sign-in, or undefined when the link is not valid. Only a GET may consume it. */
export async function verifySignInLink(context: RequestContext, provider: EmailConfig & AppProvider): Promise<SignInOutcome | undefined> {
  const adapter = adapterOf(context, provider)
  const { url } = context
  const token = url.searchParams.get("token")
  const email = normalizeEmail(provider, url.searchParams.get("email"))
  if (!token || !email) return undefined
  const stored = await adapter.useVerificationToken({ identifier: email, token: await hashToken(token, context.secret[0]!) })
  if (!stored || stored.expires.getTime() < Date.now()) return undefined
  // Following the link proves the address, so an existing user with it is this user.
  const user = (await adapter.getUserByEmail(email)) ?? { email, emailVerified: new Date() }
  return {
    user,
    account: { provider: provider.id, type: "email", providerAccountId: email },
    provider: { id: provider.id, type: "email", allowDangerousEmailAccountLinking: true },
    // The link's own callbackUrl, for a link opened in a browser that has no callback-url cookie.
    callbackUrl: url.searchParams.get("callbackUrl") ?? undefined,
  }
}
