/**
 * A failed OAuth sign-in, logged so that it points at the fix: the error itself (a database
 * driver's as its code, see loggable-error.ts), and a warning when the failure looks like a
 * provider written with the wrong type (see oidc-type-hint.ts, loaded only then).
 */
import { authorizationServer } from "../oauth/discovery.js"
import type { ResolvedOAuthProvider } from "../providers/types.js"
import type { RequestContext } from "./context.js"
import { flowOptions } from "./flow-options.js"
import { loggableError } from "./loggable-error.js"

/** Logs a sign-in with `provider` that failed with `failure`, and a hint when one applies. */
export async function logSignInFailure(context: RequestContext, provider: ResolvedOAuthProvider, failure: unknown): Promise<void> {
  context.logger.error(await loggableError(failure))
  const refusal = (failure as { code?: unknown; error?: unknown } | null) ?? {}
  if (provider.type !== "oauth" || refusal.code !== "ERR_OAUTH_CALLBACK") return
  // The discovery document is cached from this sign-in's start; a failure to read it leaves the URL to decide.
  const server = provider.issuer === undefined ? undefined : await authorizationServer(provider, flowOptions(context)).catch(() => undefined)
  const { needsOidcType, oidcTypeHint } = await import("./oidc-type-hint.js")
  if (needsOidcType(provider, typeof refusal.error === "string" ? refusal.error : undefined, server?.scopes_supported)) {
    context.logger.warn("OAUTH_TYPE_SHOULD_BE_OIDC", { message: oidcTypeHint(provider.id) })
  }
}
