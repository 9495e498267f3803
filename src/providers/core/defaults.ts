/**
 * The default profile and account callbacks, used when a provider or the user supplies none.
 */
import type { Account, Profile, TokenSet, User } from "../../types.js"

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null
}

/**
 * The standard claims to a `User`: `id` from `sub` (else `id`), `email`, `name` (else `nickname`,
 * else `preferred_username`, as Auth.js falls back), and `image` from `picture`.
 *
 * @example
 * ```ts
 * import { defaultProfile } from "latchkey/providers"
 * defaultProfile({ sub: "248289761001", name: "Jane", email: "jane@example.com", picture: "https://example.com/jane.png" })
 * // { id: "248289761001", email: "jane@example.com", name: "Jane", image: "https://example.com/jane.png" }
 * ```
 */
export function defaultProfile(profile: Profile): User {
  const id = profile.sub ?? (profile as { id?: unknown }).id
  return {
    id: id === undefined || id === null ? undefined : String(id),
    email: stringOrNull(profile.email),
    name: stringOrNull(profile.name) ?? stringOrNull(profile.nickname) ?? stringOrNull(profile.preferred_username),
    image: stringOrNull(profile.picture),
  }
}

const KEPT_TOKEN_FIELDS = ["access_token", "id_token", "refresh_token", "expires_at", "scope", "token_type", "session_state"] as const

/**
 * Keeps the token fields an account needs, and nothing the provider sent besides.
 *
 * @example
 * ```ts
 * import { defaultAccount } from "latchkey/providers"
 * import GitHub from "latchkey/providers/github"
 * // The default fields, plus one the provider adds to its token response.
 * const provider = GitHub({ account: (tokens) => ({ ...defaultAccount(tokens), refresh_token_expires_in: tokens.refresh_token_expires_in }) })
 * ```
 */
export function defaultAccount(tokens: TokenSet): Partial<Account> {
  const kept: Record<string, unknown> = {}
  for (const field of KEPT_TOKEN_FIELDS) {
    if (tokens[field] !== undefined) kept[field] = tokens[field]
  }
  return kept as Partial<Account>
}

/** The OpenID Connect claims these mappings read. */
interface StandardClaims {
  sub: string
  name?: string | null
  given_name?: string | null
  family_name?: string | null
  preferred_username?: string | null
  email?: string | null
  picture?: string | null
}

/**
 * The standard claims, naming the user by `preferred_username` when there is no `name`: what
 * identity servers that let admins leave the display name empty (Keycloak, Okta, ZITADEL,
 * IdentityServer, …) need.
 */
export function standardClaimsOrUsername<P extends StandardClaims>(profile: P): User {
  return { id: profile.sub, name: profile.name ?? profile.preferred_username ?? null, email: profile.email ?? null, image: profile.picture ?? null }
}

/**
 * {@link standardClaimsOrUsername} with no image, for servers whose profile defines no `picture`
 * claim (Okta, OneLogin, Beyond Identity): a stray claim of that name is not taken as an avatar.
 */
export function standardClaimsOrUsernameNoImage<P extends StandardClaims>(profile: P): User {
  return { id: profile.sub, name: profile.name ?? profile.preferred_username ?? null, email: profile.email ?? null, image: null }
}

/**
 * The standard claims, naming the user by `given_name` and `family_name` when there is no `name`
 * (Asgardeo, Kinde).
 */
export function standardClaimsOrFullName<P extends StandardClaims>(profile: P): User {
  const fullName = [profile.given_name, profile.family_name].filter(Boolean).join(" ") || null
  return { id: profile.sub, name: profile.name ?? fullName, email: profile.email ?? null, image: profile.picture ?? null }
}
