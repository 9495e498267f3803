import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims Gitea puts in id_tokens for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import Gitea, { type GiteaProfile } from "latchkey/providers/gitea"
 * const provider = Gitea({
 *   profile: (profile: GiteaProfile) => ({ id: profile.sub, name: profile.preferred_username ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
 * })
 * ```
 */
export interface GiteaProfile {
  /** The user's numeric id, as a string. */
  sub: string
  /** The full name, or the username when none is set. */
  name?: string
  preferred_username?: string
  profile?: string
  picture?: string
  website?: string
  locale?: string
  updated_at?: number
  email?: string
  email_verified?: boolean
  /** With the `groups` scope: organisations and teams. */
  groups?: string[]
  [claim: string]: unknown
}

/**
 * Sign in with Gitea (OpenID Connect), on your own instance.
 *
 * Setup: create an OAuth2 application under Settings → Applications on your instance (or an
 * instance-wide one in Site Administration) with the redirect URI `<base>/callback/gitea`, as a
 * confidential client; set `AUTH_GITEA_ID`, `AUTH_GITEA_SECRET` and `AUTH_GITEA_ISSUER` (the
 * instance's root URL, such as `https://gitea.example.com`). A trailing slash in the issuer is
 * trimmed, so it never breaks discovery.
 *
 * Gitea announces no revocation endpoint, so revocation is flagged off.
 *
 * The profile is mapped by the standard claims (`sub`, `name`, `email`, `picture`).
 *
 * Exported from `latchkey/providers/gitea` and `latchkey/providers`.
 * Docs: https://docs.gitea.com/development/oauth2-provider
 *
 * @example
 * ```ts
 * import Gitea from "latchkey/providers/gitea"
 * const provider = Gitea({ issuer: "https://gitea.example.com" })
 * ```
 */
export default function Gitea(options?: OIDCUserConfig<GiteaProfile>): OIDCConfig<GiteaProfile> {
  return oidcProvider(
    {
      id: "gitea",
      name: "Gitea",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: false },
      docs: "https://docs.gitea.com/development/oauth2-provider",
      style: { brandColor: "#609926", mark: () => import("./logos/gitea.js") },
    },
    options
  )
}
