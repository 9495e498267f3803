/**
 * The default profile and account callbacks, used when a provider or the user supplies none.
 */
import type { Account, Profile, TokenSet, User } from "../../types.js"

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null
}

/**
 * The standard claims to a `User`: `id` from `sub` (else `id`), `email`, `name`, and `image` from
 * `picture`.
 */
export function defaultProfile(profile: Profile): User {
  const id = profile.sub ?? (profile as { id?: unknown }).id
  return {
    id: id === undefined || id === null ? undefined : String(id),
    email: stringOrNull(profile.email),
    name: stringOrNull(profile.name),
    image: stringOrNull(profile.picture),
  }
}

const KEPT_TOKEN_FIELDS = ["access_token", "id_token", "refresh_token", "expires_at", "scope", "token_type", "session_state"] as const

/** Keeps the token fields an account needs, and nothing the provider sent besides. */
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
  preferred_username?: string | null
  email?: string | null
  picture?: string | null
}

/**
 * The standard claims, naming the user by `preferred_username` when there is no `name`: what
 * identity servers that let admins leave the display name empty (Keycloak, Okta, ZITADEL,
 * IdentityServer, …) need.
 */
export function standardClaimsOrUsername(profile: StandardClaims): User {
  return { id: profile.sub, name: profile.name ?? profile.preferred_username ?? null, email: profile.email ?? null, image: profile.picture ?? null }
}
