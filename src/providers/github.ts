import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"
import { trimTrailingSlashes } from "../lib/trim-slashes.js"

/**
 * The user object of `GET /user` (REST API 2022-11-28).
 *
 * @example
 * ```ts
 * import GitHub, { type GitHubProfile } from "latchkey/providers/github"
 * const provider = GitHub({
 *   profile: (profile: GitHubProfile) => ({ id: String(profile.id), name: profile.login, email: profile.email, image: profile.avatar_url }),
 * })
 * ```
 */
export interface GitHubProfile {
  login: string
  id: number
  node_id: string
  avatar_url: string
  gravatar_id: string | null
  url: string
  html_url: string
  type: string
  site_admin: boolean
  name: string | null
  company: string | null
  blog: string | null
  location: string | null
  /** The public email; `null` when the user keeps every address private. */
  email: string | null
  hireable: boolean | null
  bio: string | null
  twitter_username?: string | null
  public_repos: number
  public_gists: number
  followers: number
  following: number
  created_at: string
  updated_at: string
  [field: string]: unknown
}

/**
 * One entry of `GET /user/emails`.
 *
 * @example
 * ```ts
 * import type { GitHubEmail } from "latchkey/providers/github"
 * const verifiedAddresses = (emails: GitHubEmail[]) => emails.filter((entry) => entry.verified).map((entry) => entry.email)
 * ```
 */
export interface GitHubEmail {
  email: string
  primary: boolean
  verified: boolean
  visibility: "public" | "private" | null
}

/**
 * GitHub options: everything in {@link OAuthUserConfig}, plus GitHub Enterprise Server.
 *
 * @example
 * ```ts
 * import GitHub, { type GitHubUserConfig } from "latchkey/providers/github"
 * const options: GitHubUserConfig = { enterprise: { baseUrl: "https://github.acme.dev" }, authorization: { params: { scope: "read:user user:email read:org" } } }
 * const provider = GitHub(options)
 * ```
 */
export interface GitHubUserConfig extends OAuthUserConfig<GitHubProfile> {
  /** For GitHub Enterprise Server: the instance's URL, such as `https://github.acme.dev`. */
  enterprise?: { baseUrl?: string }
}

const API_HEADERS = { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" }

/**
 * Sign in with GitHub (an OAuth app or a GitHub App's user authorization).
 *
 * Setup: create an OAuth app at https://github.com/settings/developers with the callback URL
 * `<base>/callback/github`; set `AUTH_GITHUB_ID` and `AUTH_GITHUB_SECRET`.
 *
 * Quirks, handled for you: GitHub appends the RFC 9207 `iss` parameter
 * (`https://github.com/login/oauth`), which is compared when present but not required (GitHub
 * rolled it out, back and out again in 2026, and GHES's metadata is wrong, so a rollback must not
 * break every sign-in; a wrong `iss` is still refused); when the user keeps their email private,
 * `/user/emails` is asked for the primary verified address; every API call sends a `User-Agent`.
 * OAuth-app tokens do not expire and cannot be refreshed, so refresh is flagged off.
 *
 * Exported from `latchkey/providers/github` and `latchkey/providers`.
 * Docs: https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
 *
 * @example
 * ```ts
 * import GitHub from "latchkey/providers/github"
 * const providers = [GitHub] // AUTH_GITHUB_ID / AUTH_GITHUB_SECRET from the environment
 * const enterprise = GitHub({ enterprise: { baseUrl: "https://github.acme.dev" } })
 * ```
 */
export default function GitHub(options: GitHubUserConfig = {}): OAuthConfig<GitHubProfile> {
  const { enterprise, ...userOptions } = options
  const web = enterprise?.baseUrl === undefined ? "https://github.com" : trimTrailingSlashes(enterprise.baseUrl)
  const api = enterprise?.baseUrl ? `${web}/api/v3` : "https://api.github.com"
  return oauthProvider(
    {
      id: "github",
      name: "GitHub",
      type: "oauth",
      authorization: { url: `${web}/login/oauth/authorize`, params: { scope: "read:user user:email" } },
      token: `${web}/login/oauth/access_token`,
      userinfo: {
        url: `${api}/user`,
        async request({ provider, fetchJson }) {
          // The resolved URL, so a user's override (a proxy, say) is honoured for both calls. The
          // record sets it and a merge cannot unset it, so it is always there.
          const user = provider.userinfo.url!
          const get = <T>(url: string) => fetchJson<T>(url, { headers: API_HEADERS })
          const profile = await get<GitHubProfile>(user)
          if (profile.email === null) {
            const emails = await get<GitHubEmail[]>(`${user}/emails`)
            profile.email = (Array.isArray(emails) ? emails : []).find((entry) => entry.primary && entry.verified)?.email ?? null
          }
          return profile
        },
      },
      // https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps#2-users-are-redirected-back-to-your-site-by-github
      quirks: { issParameter: `${web}/login/oauth`, issParameterOptional: true },
      capabilities: { refresh: false, revocation: false },
      docs: "https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps",
      style: { brandColor: "#181717", mark: () => import("./logos/github.js") },
      profile: (profile) => ({ id: String(profile.id), name: profile.name ?? profile.login, email: profile.email, image: profile.avatar_url }),
    },
    userOptions
  )
}
