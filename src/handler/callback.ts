/**
 * `/callback/:id`: where providers send the browser back. OAuth/OIDC callbacks finish through
 * `finishSignIn` (GET, or POST for `form_post`); email callbacks consume the link's token.
 */
import { finishSignIn } from "../oauth/finish.js"
import type { ResolvedProvider } from "../providers/types.js"
import { clearCallbackUrl, savedCallbackUrl } from "./callback-url.js"
import type { RequestContext } from "./context.js"
import { flowOptions } from "./flow-options.js"
import { forwardedCallback, redirectUriFor } from "./redirect-proxy.js"
import { completeSignIn, errorUrl } from "./complete-sign-in.js"
import { verifySignInLink } from "./email.js"
import { clientCode } from "./errors.js"
import { redirect } from "./response.js"
import { logSignInFailure } from "./sign-in-hints.js"

/** The callback's parameters: the query, or a `form_post` body (already bounded by the handler). */
async function callbackParams(request: Request): Promise<URLSearchParams> {
  if (request.method !== "POST") return new URL(request.url).searchParams
  return new URLSearchParams(await request.clone().text())
}

/**
 * An `oauth` provider whose token response holds an id_token is an OpenID Connect server: the
 * sign-in works, but the id_token is never validated and its claims never read. Said once.
 */
function warnIdTokenOnOAuth(context: RequestContext, providerId: string): void {
  context.diagnostics.warnOnce(`id-token:${providerId}`, "OAUTH_TYPE_SHOULD_BE_OIDC", `provider "${providerId}" is type "oauth", but its token response holds an id_token: it is an OpenID Connect server; write type: "oidc" to have the id_token validated`)
}

/** GET|POST /callback/:id. */
export async function callbackRoute(context: RequestContext, provider: ResolvedProvider): Promise<Response> {
  if (provider.type === "email") {
    const outcome = await verifySignInLink(context, provider)
    if (!outcome) return redirect(errorUrl(context, "Verification"))
    const callbackUrl = (await savedCallbackUrl(context)) ?? outcome.callbackUrl
    return completeSignIn(context, { ...outcome, callbackUrl, cookies: clearCallbackUrl(context) })
  }
  if (provider.type !== "oauth" && provider.type !== "oidc") return redirect(errorUrl(context, "Configuration"))
  const forward = await forwardedCallback(context, provider, await callbackParams(context.request))
  if (forward === "refused") return redirect(errorUrl(context, "Configuration"))
  if (forward !== undefined) return redirect(forward)
  try {
    const result = await finishSignIn(provider, context.request, { ...flowOptions(context), redirectUri: redirectUriFor(context, provider) })
    if (provider.type === "oauth" && typeof result.tokens.id_token === "string") warnIdTokenOnOAuth(context, provider.id)
    const cookies = [...result.cookies, ...clearCallbackUrl(context)]
    return await completeSignIn(context, { ...result, provider, callbackUrl: await savedCallbackUrl(context), cookies })
  } catch (error) {
    await logSignInFailure(context, provider, error)
    // A failed callback ends nothing, as in Auth.js: it may not be this flow's answer (a forged
    // `?error=` a third-party page navigated to, a stale tab's, where only PKCE binds the flow), and
    // the sign-in in flight must keep its checks to come back. They expire with the flow, and the
    // next sign-in replaces them; a code cannot be exchanged twice.
    return redirect(errorUrl(context, clientCode(error)))
  }
}
