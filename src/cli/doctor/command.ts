/**
 * `latchkey doctor`: reads the app's environment and configuration and runs every check in turn,
 * printing one line per finding; each problem names its fix, and any problem exits 1.
 */
import { LatchkeyError } from "../../errors.js"
import { loadAppConfig } from "../app-config.js"
import { appDependencies } from "../app-package.js"
import { SchemaOptionError, TypeScriptConfigError } from "../errors.js"
import { NO_FEATURES, withFeatures } from "../schema/features.js"
import { appEnvironment } from "../env-files.js"
import type { CliIO } from "../io.js"
import { importPackage, type PackageLoader } from "../schema/drivers/database.js"
import type { DoctorContext, DoctorOptions } from "./context.js"
import { checkDiscovery } from "./discovery-check.js"
import { checkProviders, providerFailureOf, providerFix } from "./provider-checks.js"
import { doctorReport, type DoctorReport } from "./report.js"
import { checkSecret } from "./secret-check.js"
import { checkTables } from "./table-check.js"
import { checkUrls } from "./url-checks.js"

/** The usage lines of `doctor`, for the CLI's help. */
export const DOCTOR_USAGE = `  latchkey doctor [--config FILE] [--url BROWSER_URL] [--database-url URL] [--adapter drizzle|kysely|pg]
                  [--with database-sessions,email,passkeys,passwords] [--offline]
                                    Check the secret, AUTH_URL against the URL you open, the cookie
                                    prefixes, host trust, each provider (callback URLs to register,
                                    discovery, issuer, clock skew) and the adapter's tables (--with
                                    adds to what the configuration uses, as for schema).
                                    Exits 1 when a problem is found; each names its fix.`

const VALUE_FLAGS: Record<string, keyof DoctorOptions> = { "--config": "config", "--url": "url", "--database-url": "databaseUrl", "--adapter": "adapter", "--with": "with" }

function parseDoctorArgs(args: string[]): DoctorOptions | { error: string } {
  const options: DoctorOptions = { offline: false }
  for (let index = 0; index < args.length; index++) {
    const flag = args[index]!
    if (flag === "--offline") {
      options.offline = true
      continue
    }
    const key = VALUE_FLAGS[flag]
    const value = args[index + 1]
    if (key === undefined) return { error: `Unknown argument: ${flag}` }
    if (value === undefined || value.startsWith("--")) return { error: `${flag} needs a value` }
    ;(options as unknown as Record<string, string>)[key] = value
    index++
  }
  return options.with === undefined ? options : withListChecked(options, options.with)
}

/** The options, or the usage error of a `--with` list naming an unknown feature (the same names as schema's). */
function withListChecked(options: DoctorOptions, list: string): DoctorOptions | { error: string } {
  try {
    withFeatures(NO_FEATURES, list)
    return options
  } catch (failure) {
    if (failure instanceof SchemaOptionError) return { error: failure.message }
    throw failure
  }
}

/** What `doctor` may take from its host besides the I/O: the clock, the network, the driver loader. */
export interface DoctorHost {
  now?: () => number
  fetch?: typeof fetch
  load?: PackageLoader
}

/** Runs `latchkey doctor` with `args`; answers 0 when nothing is wrong, 1 otherwise, 2 for a usage error. */
export async function doctorCommand(args: string[], io: CliIO, host: DoctorHost = {}): Promise<number> {
  const options = parseDoctorArgs(args)
  if ("error" in options) {
    io.err(`${options.error}\n\nUsage:\n${DOCTOR_USAGE}`)
    return 2
  }
  const report = doctorReport(io)
  const { env, sources } = appEnvironment(io)
  const { config, failure } = await readConfig(io, options, report)
  const context: DoctorContext = { env, sources, config, configFailure: failure, dependencies: appDependencies(io), options, now: host.now ?? Date.now, fetch: host.fetch ?? fetch }
  checkSecret(context, report)
  const location = checkUrls(context, report)
  const providers = checkProviders(context, report, location)
  if (!options.offline) await checkDiscovery(context, report, providers)
  await checkTables(context, report, host.load ?? importPackage)
  io.out(report.problems === 0 ? "No problems found." : `${report.problems} problem${report.problems === 1 ? "" : "s"} found.`)
  return report.problems === 0 ? 0 : 1
}

async function readConfig(io: CliIO, options: DoctorOptions, report: DoctorReport): Promise<{ config: DoctorContext["config"]; failure?: string }> {
  try {
    const { config, path, searched } = await loadAppConfig(io, options.config)
    if (config === undefined) report.note(`No latchkey configuration found (looked for ${searched.slice(0, 4).join(", ")} ...): only the environment is checked. Pass --config FILE.`)
    else report.pass(`Read the configuration from ${path}.`)
    return { config }
  } catch (failure) {
    if (!(failure instanceof LatchkeyError)) throw failure
    // The error advises saying what the app uses instead; a run that does is not failed for it.
    const given = (["adapter", "with"] as const).filter((flag) => options[flag] !== undefined).map((flag) => `--${flag} ${options[flag]}`)
    if (failure instanceof TypeScriptConfigError && given.length > 0) {
      const path = /^(\S+) is TypeScript/.exec(failure.message)?.[1] ?? "The configuration"
      const node = typeof process === "object" ? process.versions.node : "this version"
      report.note(
        `${path} is TypeScript, which Node ${node} cannot load: doctor skipped it, and takes what the app uses from ${given.join(" ")}. ` +
          "Its providers, basePath and other settings were not checked (Node 22.18 or later, or the CLI through tsx, checks them).",
      )
      return { config: undefined, failure: failure.code }
    }
    const provider = providerFailureOf(failure)
    // createAuth checks each provider as the module loads: the provider is the finding, with its own fix.
    if (provider !== undefined) report.problem(`${provider.message} The configuration did not load because of it, so the checks that need it were skipped.`, providerFix(provider))
    else report.problem(`${failure.code}: ${failure.message}`, "make the configuration load (the message says how), or pass --config FILE.")
    return { config: undefined, failure: provider?.code ?? failure.code }
  }
}
