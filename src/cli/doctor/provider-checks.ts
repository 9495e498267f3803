/**
 * Each provider resolved as the handler would resolve it at `AUTH_URL`: a configuration error is a
 * problem naming the option or variable to set, a client without its secret is named by its
 * `AUTH_<ID>_SECRET`, and each OAuth provider's callback URL is printed, to be registered with the
 * provider exactly as written.
 */
import { LatchkeyError } from "../../errors.js"
import { envName, resolveProvider } from "../../providers/core/resolve.js"
import type { ResolvedOAuthProvider, ResolvedProvider } from "../../providers/types.js"
import type { DoctorContext } from "./context.js"
import type { DoctorReport } from "./report.js"
import type { AppLocation } from "./url-checks.js"

/** The providers that resolved, for the network checks after this one. */
export function checkProviders(context: DoctorContext, report: DoctorReport, location: AppLocation): ResolvedOAuthProvider[] {
  const providers = context.config?.providers
  if (!Array.isArray(providers) || location.origin === undefined) return []
  const resolved: ResolvedOAuthProvider[] = []
  providers.forEach((provider, index) => {
    const options = { baseUrl: location.origin!, basePath: location.basePath, env: context.env, redirectProxyUrl: context.env.AUTH_REDIRECT_PROXY_URL }
    let result: ResolvedProvider
    try {
      result = resolveProvider(provider, options, index)
    } catch (failure) {
      if (!(failure instanceof LatchkeyError)) throw failure
      return report.problem(`${failure.message}`, providerFix(failure))
    }
    if (result.type !== "oauth" && result.type !== "oidc") return
    resolved.push(result)
    report.note(`Register this callback URL with ${result.name}: ${result.callbackUrl}`)
    const publicClient = result.client?.token_endpoint_auth_method === "none"
    if (result.clientSecret === undefined && result.clientPrivateKey === undefined && !publicClient) {
      report.problem(`Provider "${result.id}" has no client secret: the token request will be refused.`, `set ${envName(result.id, "SECRET")} in .env.local.`)
    }
  })
  return resolved
}

/** What a provider's configuration error is about: its provider and the option (`clientId`, `issuer`, ...). */
export interface ProviderFailure {
  code: string
  message: string
  provider?: string
  field?: string
}

/** The fix for a provider's configuration error: the variable to set, when the field has one. */
export function providerFix(failure: ProviderFailure): string {
  if (failure.code !== "ERR_INVALID_PROVIDER" || failure.provider === undefined) return "correct the provider's configuration as the message says."
  if (failure.field === "clientId") return `set ${envName(failure.provider, "ID")} (and ${envName(failure.provider, "SECRET")}) in .env.local.`
  if (failure.field === "issuer") return `set ${envName(failure.provider, "ISSUER")} in .env.local.`
  return `correct the provider's "${failure.field}" option.`
}

/**
 * The provider error behind a config that failed to load (createAuth resolves providers as the
 * module loads), read by its code and fields: the app's copy of latchkey may not be the CLI's, so
 * `instanceof` cannot be trusted across them.
 */
export function providerFailureOf(failure: LatchkeyError): ProviderFailure | undefined {
  const cause = failure.cause as Partial<ProviderFailure> | null | undefined
  if (typeof cause !== "object" || cause === null || cause.code !== "ERR_INVALID_PROVIDER" || typeof cause.message !== "string") return undefined
  return { code: cause.code, message: cause.message, provider: typeof cause.provider === "string" ? cause.provider : undefined, field: typeof cause.field === "string" ? cause.field : undefined }
}
