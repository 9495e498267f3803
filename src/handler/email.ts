/**
 * Email ("magic link") sign-in: a single-use token, stored only as a hash through the adapter,
 * valid until the provider's `maxAge`, sent as a link to the callback.
 */
import { EMAIL_METHODS, withAdapterMethods } from "../oauth/adapter.js"
import { encodeBase64url } from "../jwt/base64url.js"
import { normalizeEmailAddress } from "../lib/email-address.js"
import type { EmailConfig, AppProvider } from "../providers/types.js"
import type { RequestContext } from "./config.js"
import { sha256 } from "./digest.js"
import type { SignInOutcome } from "./complete-sign-in.js"

/** What is stored of a link's token: its SHA-256 with the secret, never the token. */
function hashToken(token: string, secret: string): Promise<string> {
  return sha256(`${token}${secret}`)
}

/**
 * The address in normalised form with the provider's `normalizeIdentifier`, or undefined when it
 * is not exactly one plain address: the rules passkey sign-up applies too (see
 * `lib/email-address.ts`).
 */
export function normalizeEmail(provider: Pick<EmailConfig, "normalizeIdentifier">, raw: string | null): string | undefined {
  return normalizeEmailAddress(raw, provider.normalizeIdentifier)
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
