/**
 * Finds and loads the app's latchkey configuration for the CLI. An app usually exports what
 * `createAuth(...)` returns (often destructured: `export const { handler, auth } = createAuth(…)`),
 * and `createAuth` marks its result, `handler` and `auth` with the config they were made from
 * (see handler/config-brand.ts), so any of those exports is enough; so do the members `Latchkey()`
 * of `latchkey/next` and `latchkey/sveltekit` returns (`handlers`, `handle`, `signIn`, ...). A plain
 * config object with a `providers` array is taken too. The module is imported for real, after `.env` and `.env.local`
 * are exposed to it, because a config is code: its providers are functions and its values come
 * from the environment.
 */
import type { AuthConfig } from "../handler/options.js"
import { brandedConfig, whileReadingConfig } from "../handler/config-brand.js"
import type { CliIO } from "./io.js"
import { exposeEnvFiles } from "./env-files.js"
import { ConfigLoadError, ConfigNotFoundError, TypeScriptConfigError } from "./errors.js"

/** What {@link loadAppConfig} found. */
export interface LoadedAppConfig {
  /** The app's configuration, or undefined when no file was found in the usual places. */
  config: AuthConfig<any, any> | undefined
  /** The file it came from, relative to the working directory. */
  path: string | undefined
  /** The paths looked at, in order (for the message when none is found). */
  searched: readonly string[]
}

/** Where apps keep their auth module, in the order they are tried; each with every extension below. */
const COMMON_PATHS = ["auth", "src/auth", "lib/auth", "src/lib/auth", "app/auth", "server/auth", "src/server/auth", "auth.config", "src/auth.config", "latchkey.config"]
const EXTENSIONS = [".ts", ".mts", ".js", ".mjs"]

/** The exports tried first, before any other export of the module. */
const PREFERRED_EXPORTS = ["default", "auth", "handler", "config", "authConfig"]

/**
 * The app's configuration: from `explicitPath` (the `--config` flag) or the first common path that
 * exists (`auth.ts`, `src/auth.ts`, `lib/auth.ts`, … with `.ts`, `.mts`, `.js`, `.mjs`).
 *
 * @throws ConfigNotFoundError when `explicitPath` does not exist; TypeScriptConfigError when the file is
 * TypeScript and this Node cannot strip types; ConfigLoadError when the module throws or exports no config.
 *
 * @example
 * ```ts
 * const { config, path } = await loadAppConfig(io, "src/auth.ts")
 * // config?.providers, config?.adapter, config?.session?.strategy
 * ```
 */
export async function loadAppConfig(io: CliIO, explicitPath?: string): Promise<LoadedAppConfig> {
  const searched = explicitPath !== undefined ? [explicitPath] : COMMON_PATHS.flatMap((base) => EXTENSIONS.map((extension) => `${base}${extension}`))
  const path = searched.find((candidate) => io.readFile(candidate) !== undefined)
  if (path === undefined) {
    if (explicitPath !== undefined) throw new ConfigNotFoundError(`--config ${explicitPath}: no such file in the working directory.`)
    return { config: undefined, path: undefined, searched }
  }
  if (io.importModule === undefined) throw new ConfigLoadError(`${path} cannot be loaded by this host: it cannot import modules.`)
  exposeEnvFiles(io)
  // latchkey/next and latchkey/sveltekit then defer their checks (a provider without its id, say)
  // to first use: doctor reports each such gap itself, and schema needs none of them.
  const loaded = await whileReadingConfig(() => importConfigModule(io.importModule!, path))
  const config = configAmong(loaded)
  if (config === undefined) {
    throw new ConfigLoadError(`${path} exports no latchkey configuration: export what createAuth(...) returns (or its handler or auth), or the config object itself.`)
  }
  return { config, path, searched }
}

async function importConfigModule(importModule: (name: string) => Promise<unknown>, path: string): Promise<unknown> {
  try {
    return await importModule(path)
  } catch (failure) {
    const code = (failure as { code?: unknown } | null)?.code
    if (/\.(c|m)?tsx?$/.test(path) && code === "ERR_UNKNOWN_FILE_EXTENSION") throw typeScriptError(path, failure)
    const detail = failure instanceof Error ? `${typeof code === "string" ? `${code}: ` : ""}${failure.message}` : String(failure)
    // Bundlers resolve `./db` and `@/lib/db`; Node does not, and the CLI imports with Node.
    const hint = code === "ERR_MODULE_NOT_FOUND" ? " The CLI imports the file with Node: its imports need file extensions and no path aliases; or pass --with instead." : ""
    throw new ConfigLoadError(`${path} failed to load: ${detail}${hint}`, { cause: failure })
  }
}

function typeScriptError(path: string, cause: unknown): TypeScriptConfigError {
  const node = typeof process === "object" ? process.versions.node : "this version"
  return new TypeScriptConfigError(
    `${path} is TypeScript, which Node ${node} cannot load. Use Node 22.18 or later (or Node 22.6+ with NODE_OPTIONS=--experimental-strip-types), ` +
      `or run the CLI through tsx: npx tsx node_modules/latchkey/dist/cli.js <command>, ` +
      `or skip the config and say what the app uses: --with database-sessions,email,passkeys,passwords`,
    { cause },
  )
}

/** The configuration among a module's exports: a branded export first, then a plain config object. */
function configAmong(module: unknown): AuthConfig<any, any> | undefined {
  if (typeof module !== "object" || module === null) return undefined
  const exports = module as Record<string, unknown>
  const names = [...PREFERRED_EXPORTS.filter((name) => name in exports), ...Object.keys(exports).filter((name) => !PREFERRED_EXPORTS.includes(name))]
  for (const name of names) {
    const branded = brandedConfig(exports[name])
    if (branded) return branded
  }
  for (const name of names) {
    const value = exports[name]
    if (typeof value === "object" && value !== null && Array.isArray((value as { providers?: unknown }).providers)) return value as AuthConfig<any, any>
  }
  return undefined
}
