/**
 * `/signin`: the page (GET), and starting a sign-in with one provider (POST, CSRF-checked):
 * a redirect to the OAuth provider, an emailed link, or a credentials check.
 */
import { CredentialsSignin } from "../errors.js"
import { startSignIn } from "../oauth/start.js"
import type { CredentialsConfig, EmailConfig, AppProvider, ResolvedOAuthProvider, ResolvedProvider } from "../providers/types.js"
import { callbackUrlCookie } from "./callback-url.js"
import type { RequestContext } from "./context.js"
import { csrfToken } from "../adapters/browser-binding.js"
import { flowOptions } from "./flow-options.js"
import { appPageWith, completeSignIn, errorUrl, signInUrl } from "./complete-sign-in.js"
import { emailRequestUser, normalizeEmail, sendSignInLink } from "./email.js"
import { logoMarkup } from "./pages/logos.js"
import { signInPage, type SignInPageParams } from "./pages/signin.js"
import { proxiedSignIn } from "./redirect-proxy.js"
import { safeRedirect, sameOrigin } from "./redirect.js"
import { html, redirect } from "./response.js"
import { PASSKEY_SCRIPT_ROUTE } from "./webauthn.js"

/** GET /signin: the default page, or a redirect to `pages.signIn` (which gets only a checked `callbackUrl`). */
export async function signInPageRoute(context: RequestContext): Promise<Response> {
  const { url } = context
  const callbackUrl = sameOrigin(url.searchParams.get("callbackUrl"), context.origin)
  if (context.pages.signIn) {
    const target = appPageWith(context, context.pages.signIn, url.searchParams)
    // Always one, as Auth.js passes it: the origin when none (or one off the origin) was asked for.
    target.searchParams.set("callbackUrl", callbackUrl ?? context.origin)
    return redirect(target.href)
  }
  const { token, cookies } = await csrfToken(context)
  const error = url.searchParams.get("error") ?? undefined
  const logos = Object.fromEntries(await Promise.all(context.providers.map(async (provider) => [provider.id, await logoMarkup(provider)] as const)))
  const passkey = passkeyPage(context)
  return html(signInPage({ providers: context.providers, csrfToken: token, callbackUrl, error, theme: context.theme, logos, passkey, baseUrl: context.baseUrl, passwordForm: context.passwords?.signInForm }), cookies, 200, passkey?.script)
}

/** The passkey section's needs, when a passkey provider and the ceremony are configured; else none, and the page has no script. */
function passkeyPage(context: RequestContext): SignInPageParams["passkey"] {
  const ceremony = context.webauthn
  if (!ceremony || !context.providers.some((provider) => provider.type === "webauthn")) return undefined
  return { baseUrl: context.baseUrl, script: `${context.baseUrl}/${PASSKEY_SCRIPT_ROUTE}?v=${ceremony.scriptVersion}`, section: ceremony.signInSection }
}

const CLIENT_CODE = /^[\w-]{1,64}$/

/**
 * The client code of a refusal `authorize` threw: a latchkey `CredentialsSignin`, or Auth.js's own
 * (its `type` says so). undefined for any other error, which is a failure, not a refusal.
 */
function credentialsSigninCode(error: unknown): string | undefined {
  const isRefusal = error instanceof CredentialsSignin || (error as { type?: unknown } | null)?.type === "CredentialsSignin"
  if (!isRefusal) return undefined
  const code = (error as { code?: unknown }).code
  return typeof code === "string" && CLIENT_CODE.test(code) ? code : "credentials"
}

async function startOAuth(context: RequestContext, provider: ResolvedOAuthProvider, callbackUrl: string | undefined): Promise<Response> {
  const proxied = await proxiedSignIn(context, provider)
  if (proxied === "refused") return redirect(errorUrl(context, "Configuration"))
  const redirectUri = proxied?.redirectUri ?? provider.callbackUrl
  const { url, cookies } = await startSignIn(provider, { ...flowOptions(context), redirectUri, state: proxied?.state })
  return redirect(url.href, [...cookies, ...(await callbackUrlCookie(context, callbackUrl))])
}

async function startEmail(context: RequestContext, provider: EmailConfig & AppProvider, form: URLSearchParams, callbackUrl: string | undefined): Promise<Response> {
  const email = normalizeEmail(provider, form.get("email"))
  if (!email) return redirect(signInUrl(context, "Verification"))
  // Any answer but true stops the email: nothing is stored and nothing is sent. The callback is
  // asked what Auth.js asks it (the user with the address, else the one a link would create, and an
  // email account), so an Auth.js app's rule on `account.provider` or `user.id` still runs here.
  let verdict: boolean | string | undefined
  try {
    const user = await emailRequestUser(context, provider, email)
    const account = { provider: provider.id, type: "email" as const, providerAccountId: email, userId: user.id }
    verdict = await context.callbacks.signIn?.({ user, account, email: { verificationRequest: true } })
  } catch (error) {
    context.logger.error(error as Error)
    return redirect(errorUrl(context, "AccessDenied"))
  }
  if (verdict === false) return redirect(errorUrl(context, "AccessDenied"))
  if (typeof verdict === "string") return redirect(await safeRedirect(context, verdict))
  await sendSignInLink(context, provider, email, callbackUrl)
  const target = new URL(context.pages.verifyRequest ?? `${context.baseUrl}/verify-request`, context.origin)
  target.searchParams.set("provider", provider.id)
  target.searchParams.set("type", provider.type)
  return redirect(target.href, await callbackUrlCookie(context, callbackUrl))
}

async function startCredentials(context: RequestContext, provider: CredentialsConfig & AppProvider, form: URLSearchParams, callbackUrl: string | undefined): Promise<Response> {
  const submitted: Record<string, unknown> = {}
  for (const name of Object.keys(provider.credentials)) submitted[name] = form.get(name) ?? undefined
  let user
  try {
    user = await provider.authorize(submitted, context.request)
  } catch (error) {
    const code = credentialsSigninCode(error)
    if (code === undefined) throw error
    return redirect(signInUrl(context, "CredentialsSignin", code))
  }
  if (!user) return redirect(signInUrl(context, "CredentialsSignin", "credentials"))
  // As in Auth.js, a user without an id still signs in, under a fresh id.
  const id = user.id === undefined || user.id === null ? crypto.randomUUID() : String(user.id)
  const account = { provider: provider.id, type: "credentials" as const, providerAccountId: id }
  // This attempt's own callbackUrl: a callback-url cookie left by an earlier attempt is not read.
  return completeSignIn(context, { user: { ...user, id }, account, provider, callbackUrl, credentials: submitted })
}

/** POST /signin/:id, after the CSRF check. */
export async function startProviderSignIn(context: RequestContext, provider: ResolvedProvider, form: URLSearchParams): Promise<Response> {
  const callbackUrl = sameOrigin(form.get("callbackUrl"), context.origin)
  if (provider.type === "oauth" || provider.type === "oidc") return startOAuth(context, provider, callbackUrl)
  if (provider.type === "email") return startEmail(context, provider, form, callbackUrl)
  if (provider.type === "credentials") return startCredentials(context, provider, form, callbackUrl)
  return redirect(errorUrl(context, "Configuration"))
}
