import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims GitLab puts in id_tokens for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import GitLab, { type GitLabProfile } from "latchkey/providers/gitlab"
 * const provider = GitLab({
 *   profile: (profile: GitLabProfile) => ({ id: profile.sub, name: profile.nickname ?? profile.name ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
 * })
 * ```
 */
export interface GitLabProfile {
  /** The user's numeric id, as a string. */
  sub: string
  sub_legacy?: string
  name?: string
  nickname?: string
  preferred_username?: string
  email?: string
  email_verified?: boolean
  website?: string
  profile?: string
  picture?: string
  groups?: string[]
  groups_direct?: string[]
  [claim: string]: unknown
}

/**
 * Sign in with GitLab (OpenID Connect), on gitlab.com or a self-managed instance.
 *
 * Setup: create an application under User Settings → Applications (or an instance-wide one in the
 * Admin area) with the redirect URI `<base>/callback/gitlab` and the `openid`, `profile` and
 * `email` scopes; set `AUTH_GITLAB_ID` and `AUTH_GITLAB_SECRET`. For a self-managed instance also
 * set `baseUrl` (Auth.js's spelling), `issuer` or `AUTH_GITLAB_ISSUER` to its URL; a trailing slash
 * is trimmed. The instance is its own issuer, so both names mean the same thing.
 *
 * Exported from `latchkey/providers/gitlab` and `latchkey/providers`.
 * Docs: https://docs.gitlab.com/integration/openid_connect_provider/
 *
 * @example
 * ```ts
 * import GitLab from "latchkey/providers/gitlab"
 * const selfManaged = GitLab({ baseUrl: "https://gitlab.acme.dev" })
 * ```
 */
export default function GitLab(options: OIDCUserConfig<GitLabProfile> = {}): OIDCConfig<GitLabProfile> {
  const { baseUrl, ...userOptions } = options
  return oidcProvider(
    {
      id: "gitlab",
      name: "GitLab",
      type: "oidc",
      issuer: "https://gitlab.com",
      authorization: { params: { scope: "openid profile email" } },
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: true },
      docs: "https://docs.gitlab.com/integration/openid_connect_provider/",
      style: { brandColor: "#FC6D26", mark: () => import("./logos/gitlab.js") },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
    },
    { ...userOptions, issuer: userOptions.issuer ?? baseUrl }
  )
}
