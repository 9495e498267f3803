import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a Passage id_token. Passage keeps no name or picture in its scopes.
 *
 * @example
 * ```ts
 * import Passage, { type PassageProfile } from "latchkey/providers/passage"
 * const provider = Passage({
 *   profile: (profile: PassageProfile) => ({ id: profile.sub, name: profile.email ?? profile.phone_number ?? null, email: profile.email ?? null }),
 * })
 * ```
 */
export interface PassageProfile {
  iss: string
  aud: string | string[]
  /** The user's Passage id. */
  sub: string
  /** With the `email` scope. */
  email?: string
  email_verified?: boolean
  /** With the `phone` scope. */
  phone_number?: string
  phone_number_verified?: boolean
  [claim: string]: unknown
}

/**
 * Sign in with Passage by 1Password (OpenID Connect), through a Passage hosted-login app.
 *
 * @deprecated 1Password retired Passage on 2026-01-16; its hosted login no longer signs anyone in.
 * Move to another provider. The id stays so existing configurations still compile.
 *
 * Setup: create a hosted-login app in the Passage Console and add `<base>/callback/passage` to
 * its redirect URIs; from its OIDC settings, set `AUTH_PASSAGE_ID`, `AUTH_PASSAGE_SECRET` and
 * `AUTH_PASSAGE_ISSUER`, the issuer that the app's OpenID configuration names. A trailing slash is
 * trimmed, so it never breaks discovery.
 *
 * Passage returns no name or picture, so only the id and email are mapped; the profile is the
 * standard claims (`sub`, `email`).
 *
 * Exported from `latchkey/providers/passage` and `latchkey/providers`.
 * Docs: https://docs.passage.id/hosted-login/oidc-client-configuration
 *
 * @example
 * ```ts
 * import Passage from "latchkey/providers/passage"
 * const provider = Passage() // AUTH_PASSAGE_ID / _SECRET / _ISSUER
 * ```
 */
export default function Passage(options?: OIDCUserConfig<PassageProfile>): OIDCConfig<PassageProfile> {
  return oidcProvider(
    {
      id: "passage",
      name: "Passage",
      type: "oidc",
      authorization: { params: { scope: "openid email" } },
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: false },
      docs: "https://docs.passage.id/hosted-login/oidc-client-configuration",
      // Retired on 2026-01-16, as reported at https://apis.io/providers/passage-1password/ and
      // https://www.authsignal.com/blog/articles/how-to-migrate-from-passage-to-authsignal
      deprecated: "1Password retired Passage on 2026-01-16.",
      style: { brandColor: "#145FE4" },
    },
    options
  )
}
