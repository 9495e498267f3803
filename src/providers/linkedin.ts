import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a Sign In with LinkedIn using OpenID Connect id_token.
 *
 * @example
 * ```ts
 * import LinkedIn, { type LinkedInProfile } from "latchkey/providers/linkedin"
 * const provider = LinkedIn({
 *   profile: (profile: LinkedInProfile) => ({ id: profile.sub, name: profile.given_name ?? profile.name ?? null, email: profile.email_verified ? profile.email : null }),
 * })
 * ```
 */
export interface LinkedInProfile {
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  picture?: string
  locale?: { country: string; language: string } | string
  email?: string
  email_verified?: boolean
  [claim: string]: unknown
}

/**
 * Sign In with LinkedIn using OpenID Connect.
 *
 * Setup: create an app at https://www.linkedin.com/developers/apps, add the "Sign In with
 * LinkedIn using OpenID Connect" product and the redirect URL `<base>/callback/linkedin`; set
 * `AUTH_LINKEDIN_ID` and `AUTH_LINKEDIN_SECRET`.
 *
 * Quirks, handled for you: LinkedIn's issuer is `https://www.linkedin.com/oauth`, with discovery
 * under that path; the client authenticates with `client_secret_post`, and the flow is protected
 * with `state`, as LinkedIn documents for web apps.
 *
 * The profile is mapped by the standard claims (`sub`, `name`, `email`, `picture`).
 *
 * Exported from `latchkey/providers/linkedin` and `latchkey/providers`.
 * Docs: https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2
 *
 * @example
 * ```ts
 * import LinkedIn from "latchkey/providers/linkedin"
 * const provider = LinkedIn() // AUTH_LINKEDIN_ID / AUTH_LINKEDIN_SECRET
 * ```
 */
export default function LinkedIn(options?: OIDCUserConfig<LinkedInProfile>): OIDCConfig<LinkedInProfile> {
  return oidcProvider(
    {
      id: "linkedin",
      name: "LinkedIn",
      type: "oidc",
      issuer: "https://www.linkedin.com/oauth",
      authorization: { params: { scope: "openid profile email" } },
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: false, revocation: "https://www.linkedin.com/oauth/v2/revoke" },
      docs: "https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2",
      style: { brandColor: "#0A66C2", mark: () => import("./marks/linkedin.js") },
    },
    options
  )
}
