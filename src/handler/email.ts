/**
 * Email ("magic link") sign-in: a single-use token, stored only as a hash through the adapter,
 * valid until the provider's `maxAge`, sent as a link to the callback.
 */
import { InvalidProviderError } from "../errors.js"
import { encodeBase64url } from "../jwt/base64url.js"
import type { EmailConfig, AppProvider } from "../providers/types.js"
import type { RequestContext } from "./config.js"
import type { SignInOutcome } from "./complete-sign-in.js"

async function hashToken(token: string, secret: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${token}${secret}`))
  return encodeBase64url(new Uint8Array(digest))
}

const EMAIL = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/

/** The address in normalised form, or undefined when it is not exactly one plausible address. */
export function normalizeEmail(provider: EmailConfig, raw: string | null): string | undefined {
  if (!raw) return undefined
  const value = provider.normalizeIdentifier ? provider.normalizeIdentifier(raw) : raw.trim().toLowerCase()
  return EMAIL.test(value) && value.length <= 320 ? value : undefined
}

function adapterOf(context: RequestContext, provider: EmailConfig) {
  const adapter = context.config.adapter
  if (!adapter?.createVerificationToken || !adapter.useVerificationToken || !adapter.getUserByEmail || !adapter.createUser) {
    throw new InvalidProviderError(provider.id, "adapter", "email sign-in needs an adapter with verification token support.")
  }
  return adapter
}

/** Creates the token, stores its hash, and sends the link. */
export async function sendSignInLink(context: RequestContext, provider: EmailConfig & AppProvider, email: string, callbackUrl: string | undefined): Promise<void> {
  const adapter = adapterOf(context, provider)
  const token = provider.generateVerificationToken ? await provider.generateVerificationToken() : encodeBase64url(crypto.getRandomValues(new Uint8Array(32)))
  const expires = new Date(Date.now() + (provider.maxAge ?? 24 * 60 * 60) * 1000)
  await adapter.createVerificationToken!({ identifier: email, token: await hashToken(token, context.secret[0]!), expires })
  const url = new URL(provider.callbackUrl)
  url.searchParams.set("token", token)
  url.searchParams.set("email", email)
  if (callbackUrl) url.searchParams.set("callbackUrl", callbackUrl)
  await provider.sendVerificationRequest({ identifier: email, url: url.href, expires, provider, token, theme: context.config.theme ?? {}, request: context.request })
}

/** Consumes the link's token; answers the sign-in, or undefined when the link is not valid. */
export async function verifySignInLink(context: RequestContext, provider: EmailConfig & AppProvider): Promise<SignInOutcome | undefined> {
  const adapter = adapterOf(context, provider)
  const { url } = context
  const token = url.searchParams.get("token")
  const email = normalizeEmail(provider, url.searchParams.get("email"))
  if (!token || !email) return undefined
  const stored = await adapter.useVerificationToken!({ identifier: email, token: await hashToken(token, context.secret[0]!) })
  if (!stored || stored.expires.getTime() < Date.now()) return undefined
  // Following the link proves the address, so an existing user with it is this user.
  const user = (await adapter.getUserByEmail!(email)) ?? { email, emailVerified: new Date() }
  return { user, account: { provider: provider.id, type: "email", providerAccountId: email }, provider: { id: provider.id, allowDangerousEmailAccountLinking: true } }
}
