/**
 * What `init` tells the user besides the files: the variables `.env.local` gets (with a comment on
 * where each value comes from), each provider's callback URL to register with it, and the packages
 * to install. The callback URL is `AUTH_URL` (the app's, when `.env.local` already sets one) plus
 * the base path `/auth` (or `AUTH_URL`'s own path) plus `/callback/<id>`, as the handler builds it.
 * The install line adds, for a TypeScript app, the type packages its build needs (`@types/pg`).
 */
import { DATABASE_PACKAGES, DATABASE_TYPE_PACKAGES, providerEnvNames } from "./config-source.js"
import { newSecret, type EnvEntry } from "./env-file.js"
import type { InitChoices } from "./plan.js"
import type { CatalogProvider } from "./provider-catalog.js"

function providerEntries(provider: CatalogProvider): EnvEntry[] {
  const [id, secret, issuer] = providerEnvNames(provider)
  const entries: EnvEntry[] = [
    { name: id!, value: "", comment: `${provider.exportName}: the client id and secret of the OAuth app you register with ${provider.exportName}` },
    { name: secret!, value: "" },
  ]
  if (issuer !== undefined) entries.push({ name: issuer, value: "", comment: `${provider.exportName}: your instance's issuer URL` })
  return entries
}

/** The variables `.env.local` should set for these choices. */
export function envEntries(choices: InitChoices, devOrigin: string): EnvEntry[] {
  const entries: EnvEntry[] = [
    { name: "AUTH_SECRET", value: newSecret(), comment: "Encrypts the session cookies. Keep it secret; changing it signs everyone out." },
    { name: "AUTH_URL", value: devOrigin, comment: "The app's public URL: the callback URLs are built from it." },
  ]
  if (choices.database === "postgres") entries.push({ name: "DATABASE_URL", value: "postgres://postgres@localhost:5432/postgres", comment: "Your PostgreSQL database." })
  return [...entries, ...redirectProviders(choices).flatMap(providerEntries)]
}

/** Where latchkey answers under `authUrl`: its path, or `/auth` when it has none. */
function baseUrl(authUrl: string, devOrigin: string): string {
  const url = URL.canParse(authUrl) ? new URL(authUrl) : new URL(devOrigin)
  const path = url.pathname.replace(/\/+$/, "")
  return `${url.origin}${path === "" ? "/auth" : path}`
}

/** The chosen providers that sign in through a redirect (OAuth, OpenID Connect): each has a client to register. */
export function redirectProviders(choices: Pick<InitChoices, "providers">): CatalogProvider[] {
  return choices.providers.filter((provider) => provider.type === "oauth" || provider.type === "oidc")
}

/** Prints the callback URL of every chosen redirect provider; nothing when there is none (password accounts alone). */
export function printCallbackUrls(choices: InitChoices, authUrl: string, out: (line: string) => void): void {
  const redirects = redirectProviders(choices)
  if (redirects.length === 0) return
  const base = baseUrl(authUrl, "http://localhost:3000")
  out(`\nRegister these callback URLs with the providers (for AUTH_URL=${authUrl}):`)
  for (const provider of redirects) out(`  ${provider.exportName.padEnd(12)} ${base}/callback/${provider.id}`)
  out(`Then put each app's client id and secret in .env.local (${redirects.flatMap((provider) => providerEnvNames(provider).slice(0, 2)).join(", ")}).`)
}

/** The packages the app does not depend on yet. */
function packagesToInstall(choices: InitChoices, dependencies: Set<string>): string[] {
  return ["latchkey", ...DATABASE_PACKAGES[choices.database]].filter((name) => !dependencies.has(name))
}

/** The type packages a TypeScript app needs to build the written module, and does not have yet. */
function typesToInstall(choices: InitChoices, dependencies: Set<string>): string[] {
  if (!choices.layout.typescript) return []
  return DATABASE_TYPE_PACKAGES[choices.database].filter((name) => !dependencies.has(name))
}

/** The step that installs what is missing, as one line to paste; `undefined` when nothing is. */
export function installStep(choices: InitChoices, dependencies: Set<string>): string | undefined {
  const packages = packagesToInstall(choices, dependencies)
  const types = typesToInstall(choices, dependencies)
  const commands = [...(packages.length > 0 ? [`npm install ${packages.join(" ")}`] : []), ...(types.length > 0 ? [`npm install -D ${types.join(" ")}`] : [])]
  return commands.length > 0 ? `Install: ${commands.join(" && ")}` : undefined
}
