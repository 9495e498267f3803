// The configuration that keeps oidc-provider quiet in the test log. It announces every default it
// falls back on (the in-memory adapter, each token lifetime, the revocation policy) with a console
// line per server and per token kind, which made up a fifth of `npm test`'s output. Each default is
// given here explicitly, with the value oidc-provider would have used, so the servers behave as
// before and say nothing. Its "Unsupported runtime" warning on Node 20 is printed when the module
// loads, before any configuration; the calm run (vitest.config.ts) shows it only beside a failure.
import { errors, type Configuration } from "oidc-provider"
import { createMemoryAdapter } from "oidc-provider/lib/adapters/memory_adapter.js"

const HOUR = 60 * 60
const FOURTEEN_DAYS = 14 * 24 * HOUR

/** oidc-provider's own default lifetimes (lib/helpers/defaults.js), stated instead of defaulted. */
export const QUIET_TTL: NonNullable<Configuration["ttl"]> = {
  AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL || HOUR,
  ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL || 10 * 60,
  DeviceCode: 10 * 60,
  BackchannelAuthenticationRequest: (ctx) => Math.min(10 * 60, Number(ctx?.oidc?.params?.requested_expiry) || 10 * 60),
  IdToken: HOUR,
  Interaction: HOUR,
  Grant: FOURTEEN_DAYS,
  Session: FOURTEEN_DAYS,
  RefreshToken: (ctx, token, client) => {
    const rotated = ctx?.oidc?.entities.RotatedRefreshToken
    const publicWebClient = client.applicationType === "web" && client.clientAuthMethod === "none"
    return rotated && publicWebClient && !token.isSenderConstrained() ? rotated.remainingTTL : FOURTEEN_DAYS
  },
}

/** oidc-provider's default revocation rule: a client revokes only its own tokens. */
const ownTokensOnly = async (_ctx: unknown, client: { clientId: string; clientAuthMethod: string }, token: { clientId?: string }) => {
  if (token.clientId === client.clientId) return true
  if (client.clientAuthMethod === "none") return false
  throw new errors.InvalidRequest("client is not authorized to revoke the presented token")
}

/**
 * The quiet defaults, for a server's configuration: its own `ttl` entries and `features` win, and
 * revocation, when a server turns it on, keeps the default rule without the notice.
 */
export function quietConfiguration(configuration: Configuration): Configuration {
  const features = configuration.features ?? {}
  const revocation = features.revocation?.enabled ? { revocation: { allowedPolicy: ownTokensOnly, ...features.revocation } } : {}
  return {
    adapter: createMemoryAdapter(configuration.clockTolerance ?? 0),
    ...configuration,
    ttl: { ...QUIET_TTL, ...configuration.ttl },
    features: { ...features, ...revocation } as Configuration["features"],
  }
}
