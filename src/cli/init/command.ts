/**
 * `latchkey init`: sets latchkey up in the app in the working directory. It detects the framework,
 * settles the choices (flags, then questions on a terminal, then defaults), writes the auth module
 * and the route, fills `.env.local` with a fresh secret and the variables each provider reads, and
 * prints each provider's callback URL to register. It creates files and never replaces one: what
 * was already there is listed as skipped, with the line to add by hand, unless it is still in the
 * shape its generator wrote (create-next-app's config, sv create's app.d.ts), which `init` adds to.
 */
import { readEnv, type EnvRecord } from "../../env.js"
import { askUntilKnown, DEFAULT_DATABASE, DEFAULT_PROVIDERS, hasPasswords, parseDatabase, parseFramework, parseProviders, PASSWORD_DEFAULT_DATABASE, splitNames, UnknownChoice, type Ask } from "./choose.js"
import { detectFramework, detectLayout, readManifest } from "./detect.js"
import { appEnvironment } from "../env-files.js"
import { ENV_FILE, mergeEnvFile } from "./env-file.js"
import { parseInitFlags, type InitFlags } from "./options.js"
import { FRAMEWORK_TITLES, type Database, type Framework, type InitChoices } from "./plan.js"
import { planFor } from "./plan-for.js"
import { envEntries, installStep, printCallbackUrls } from "./report.js"
import type { CatalogProvider } from "./provider-catalog.js"

/** The effects `init` needs: the CLI's own, and a question on the terminal when there is one. */
export interface InitIO {
  out(line: string): void
  err(line: string): void
  readFile(name: string): string | undefined
  writeFile(name: string, contents: string): void
  /** The process environment, where the app may already read a variable init would write. */
  env?: EnvRecord
  /** Present only when stdin is a terminal: `init` asks only then. */
  ask?: Ask
}

/** The usage lines of `init`, for the CLI's help. */
export const INIT_USAGE = `  latchkey init [--framework next|sveltekit|express|hono] [--provider github,google]
               [--database postgres|pglite|none] [--yes]
                                    Set latchkey up in the app here: the auth module, the route and
                                    ${ENV_FILE} (a fresh AUTH_SECRET; nothing already there is replaced).
                                    Prints each provider's callback URL. --provider password sets
                                    up email and password accounts (in a database: pglite by
                                    default). Asks on a terminal unless --yes; defaults:
                                    --provider github --database none.`

async function chooseFramework(flags: InitFlags, detected: Framework | undefined, io: InitIO, ask: Ask | undefined): Promise<Framework | UnknownChoice> {
  if (flags.framework !== undefined) {
    const framework = parseFramework(flags.framework)
    if (!(framework instanceof UnknownChoice) && detected !== undefined && framework !== detected) io.out(`package.json points to ${FRAMEWORK_TITLES[detected]}; setting up ${FRAMEWORK_TITLES[framework]} as --framework says.`)
    return framework
  }
  if (detected !== undefined) return detected
  if (ask === undefined) return new UnknownChoice("Could not tell the framework from package.json: pass --framework next, sveltekit, express or hono.")
  return askUntilKnown(ask, "Framework (next, sveltekit, express, hono): ", parseFramework, io.err)
}

async function chooseProviders(flags: InitFlags, io: InitIO, ask: Ask | undefined): Promise<CatalogProvider[] | UnknownChoice> {
  if (flags.providers !== undefined) return parseProviders(flags.providers)
  if (ask === undefined) return parseProviders(DEFAULT_PROVIDERS)
  return askUntilKnown(ask, `Providers, comma-separated (such as github,google) [${DEFAULT_PROVIDERS.join(",")}]: `, (reply) => parseProviders(splitNames(reply)), io.err, DEFAULT_PROVIDERS.join(","))
}

async function chooseDatabase(flags: InitFlags, io: InitIO, ask: Ask | undefined, passwords: boolean): Promise<Database | UnknownChoice> {
  if (flags.database !== undefined) return parseDatabase(flags.database, passwords)
  const fallback = passwords ? PASSWORD_DEFAULT_DATABASE : DEFAULT_DATABASE
  if (ask === undefined) return fallback
  const choices = passwords ? "postgres, pglite" : "postgres, pglite, none"
  return askUntilKnown(ask, `Database (${choices}) [${fallback}]: `, (reply) => parseDatabase(reply, passwords), io.err, fallback)
}

/** The choices, or the message that stops `init` (exit code 2 for a name, 1 for the app). */
async function settleChoices(flags: InitFlags, io: InitIO): Promise<InitChoices | { message: string; code: number }> {
  const manifest = readManifest(io.readFile)
  if (manifest === undefined && flags.framework === undefined) return { message: `No package.json here: run init in your app's folder (or pass --framework).`, code: 1 }
  // Names given as flags are checked before any question is asked.
  const ask = flags.yes ? undefined : io.ask
  const framework = await chooseFramework(flags, manifest && detectFramework(manifest.dependencies), io, ask)
  if (framework instanceof UnknownChoice) return { message: framework.message, code: flags.framework === undefined ? 1 : 2 }
  const providers = await chooseProviders(flags, io, ask)
  if (providers instanceof UnknownChoice) return { message: providers.message, code: 2 }
  const database = await chooseDatabase(flags, io, ask, hasPasswords(providers))
  if (database instanceof UnknownChoice) return { message: database.message, code: 2 }
  return { layout: detectLayout(io.readFile, framework), providers, database }
}

function writeFiles(choices: InitChoices, io: InitIO): { devOrigin: string; nextSteps: string[] } {
  const plan = planFor(choices)
  for (const file of plan.files) {
    const existing = io.readFile(file.path)
    if (existing === undefined) {
      io.writeFile(file.path, file.contents)
      io.out(`  created  ${file.path}`)
      continue
    }
    const { addition } = file
    const added = addition?.addTo(existing)
    if (addition === undefined || added === undefined) {
      io.out(`  skipped  ${file.path} (it exists)${file.ifExists === undefined ? "" : `: ${file.ifExists}`}`)
    } else if (added === existing) {
      io.out(`  skipped  ${file.path} (it already has ${addition.what})`)
    } else {
      io.writeFile(file.path, added)
      io.out(`  updated  ${file.path} (${addition.what})`)
    }
  }
  return plan
}

function writeEnvFile(choices: InitChoices, devOrigin: string, io: InitIO): void {
  const existing = io.readFile(ENV_FILE)
  // A variable the app already reads from .env or the environment stays as it is: one added to
  // .env.local would win over it (a new AUTH_SECRET signs everyone out).
  const { env, sources } = appEnvironment({ readFile: io.readFile, env: io.env ?? {} })
  const entries = envEntries(choices, devOrigin)
  const elsewhere = entries.filter(({ name }) => env[name] && sources[name] !== ENV_FILE)
  const merged = mergeEnvFile(existing, entries.filter((entry) => !elsewhere.includes(entry)))
  if (merged.text !== undefined) {
    io.writeFile(ENV_FILE, merged.text)
    io.out(`  ${existing === undefined ? "created" : "updated"}  ${ENV_FILE} (${merged.added.join(", ")})`)
  }
  if (merged.kept.length > 0) io.out(`  skipped  ${merged.kept.join(", ")} in ${ENV_FILE} (already set; left unchanged)`)
  for (const { name } of elsewhere) io.out(`  skipped  ${name} (already set in ${sources[name]}; left unchanged)`)
  const ignore = io.readFile(".gitignore")
  if (ignore !== undefined && !/^\s*\/?\.env(\*|\.local|\.\*)?\s*$/m.test(ignore)) io.err(`Warning: .gitignore does not list ${ENV_FILE}; add it so the secret is never committed.`)
}

/** Runs `latchkey init` with `args` (after the command name); answers the exit code. */
export async function initCommand(args: string[], io: InitIO, parseEnvFile: (text: string) => EnvRecord): Promise<number> {
  const flags = parseInitFlags(args)
  if ("error" in flags) {
    io.err(`${flags.error}\n\nUsage:\n${INIT_USAGE}`)
    return 2
  }
  if (flags.help) {
    io.out(`Usage:\n${INIT_USAGE}`)
    return 0
  }
  const choices = await settleChoices(flags, io)
  if ("message" in choices) {
    io.err(choices.message)
    return choices.code
  }
  io.out(`Setting up latchkey for ${FRAMEWORK_TITLES[choices.layout.framework]}${choices.layout.srcDir ? " (src/app)" : ""}:`)
  const { devOrigin, nextSteps } = writeFiles(choices, io)
  writeEnvFile(choices, devOrigin, io)
  const configured = readEnv("AUTH_URL", parseEnvFile(io.readFile(ENV_FILE) ?? ""))
  printCallbackUrls(choices, configured ?? devOrigin, io.out)
  const install = installStep(choices, readManifest(io.readFile)?.dependencies ?? new Set())
  const steps = [...(install === undefined ? [] : [install]), ...nextSteps]
  io.out(`\nNext:\n${steps.map((step, index) => `  ${index + 1}. ${step}`).join("\n")}`)
  return 0
}
