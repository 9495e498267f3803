/**
 * `POST /signout`: ends the session here and, when asked, at the provider too. Federated sign-out
 * is OpenID Connect RP-Initiated Logout 1.0: the browser goes to the provider's discovered
 * `end_session_endpoint` with `client_id`, the `id_token_hint` when the app keeps id_tokens
 * (`providerTokens({ signOut: { idTokenHint } })`), and a `post_logout_redirect_uri` that is the same-origin destination
 * every other redirect is held to, so a sign-out form can never send the user elsewhere through
 * the provider. A provider without an end-session endpoint signs out here only (logged at debug).
 * With `signOut.revokeTokens`, the provider's refresh token (else access token) is revoked first,
 * where the provider can; a failure is logged and sign-out goes on. The provider side lives in
 * `latchkey/provider-tokens` (its federated-signout.ts), whose plug-in holds the `signOut` options.
 */
import type { RequestContext } from "./context.js"
import { safeRedirect } from "./redirect.js"
import { redirect } from "./response.js"

/**
 * Whether this sign-out goes to the provider: the form's `federated`, else `signOut.federated`;
 * never without the plug-in's `signOut` option, whatever the form says (an app that keeps provider tokens
 * only to refresh them has not asked for provider sign-out).
 */
function isFederated(context: RequestContext, form: URLSearchParams): boolean {
  const configured = context.providerTokens?.signOut
  if (configured === undefined) return false
  const asked = form.get("federated")
  if (asked === null) return configured.federated === true
  return asked === "true" || asked === "1"
}

/** Signs out: revokes and ends the provider session when configured, then ends this one. */
export async function signOut(context: RequestContext, form: URLSearchParams): Promise<Response> {
  const destination = await safeRedirect(context, form.get("callbackUrl"))
  const federated = isFederated(context, form)
  const revokes = context.providerTokens?.signOut?.revokeTokens === true
  const engine = context.providerTokens
  const endUrl = engine && (federated || revokes) ? await engine.providerSignOut(context, form, destination, federated, revokes, await context.sessions.lend(context)) : undefined
  return redirect(endUrl ?? destination, await context.sessions.end(context))
}
