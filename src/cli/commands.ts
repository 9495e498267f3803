/**
 * The `latchkey` command line, free of Node I/O: every effect goes through {@link CliIO}, so the
 * commands run the same under test as from the shell. `node.ts` supplies the real I/O.
 */
import { LatchkeyError, NoMatchingSecretError } from "../errors.js"
import { secretsFromEnv, type EnvRecord } from "../env.js"
import { encodeBase64url } from "../lib/base64url.js"
import { decode } from "../jwt/decode.js"
import { SECURE_SESSION_COOKIE_NAME, SESSION_COOKIE_NAME } from "../jwt/get-token.js"
import { doctorCommand, DOCTOR_USAGE } from "./doctor/command.js"
import { appEnvironment } from "./env-files.js"
import { initCommand, INIT_USAGE } from "./init/command.js"
import { migrateCommand, schemaCommand } from "./schema/command.js"
import { SCHEMA_USAGE } from "./schema/options.js"
import type { CliIO } from "./io.js"

export type { CliIO } from "./io.js"

const ENV_FILE = ".env.local"

const SECRET_USAGE = `  latchkey secret [--write]         Print a new random AUTH_SECRET (32 bytes, base64url).
                                    --write adds it to ${ENV_FILE}, never replacing one the app reads.`

const DECODE_USAGE = `  latchkey decode <token> [--salt S]
                                    Decode a session token with AUTH_SECRET (and AUTH_SECRET_1..3).
                                    The salt defaults to the cookie name; both
                                    ${SECURE_SESSION_COOKIE_NAME} and ${SESSION_COOKIE_NAME} are tried.`

const USAGE = `Usage:
  latchkey --version, -v            Print the installed latchkey version.
${SECRET_USAGE}
${DECODE_USAGE}
${INIT_USAGE}
${SCHEMA_USAGE}
${DOCTOR_USAGE}`

/** Each command's own usage, for `latchkey <command> --help` (init prints its own). */
const COMMAND_USAGE: Record<string, string> = { secret: SECRET_USAGE, decode: DECODE_USAGE, schema: SCHEMA_USAGE, migrate: SCHEMA_USAGE, doctor: DOCTOR_USAGE }

function newSecret(): string {
  return encodeBase64url(crypto.getRandomValues(new Uint8Array(32)))
}

const HAS_AUTH_SECRET = /^\s*(export\s+)?AUTH_SECRET\s*=/m

function secretCommand(args: string[], io: CliIO): number {
  const unknown = args.filter((arg) => arg !== "--write")
  if (unknown.length > 0) return usageError(io, `Unknown argument: ${unknown[0]}`)
  const secret = newSecret()
  if (!args.includes("--write")) {
    io.out(secret)
    return 0
  }
  const existing = io.readFile(ENV_FILE)
  if (existing !== undefined && HAS_AUTH_SECRET.test(existing)) {
    io.err(`${ENV_FILE} already sets AUTH_SECRET; it was left unchanged.`)
    return 1
  }
  // One the app reads from .env or the environment counts too: a new one in .env.local would win over it and sign everyone out.
  const { env, sources } = appEnvironment(io)
  if (env.AUTH_SECRET) {
    io.err(`AUTH_SECRET is already set (in ${sources.AUTH_SECRET}); ${ENV_FILE} was left unchanged.`)
    return 1
  }
  const prefix = existing === undefined || existing === "" || existing.endsWith("\n") ? existing ?? "" : `${existing}\n`
  io.writeFile(ENV_FILE, `${prefix}AUTH_SECRET=${secret}\n`)
  io.out(`Added AUTH_SECRET to ${ENV_FILE}.`)
  return 0
}

/** Secrets from the environment, else from `.env.local`. */
function cliSecrets(io: CliIO, parseEnvFile: (text: string) => EnvRecord): string[] {
  const fromEnv = secretsFromEnv(io.env)
  if (fromEnv.length > 0) return fromEnv
  const file = io.readFile(ENV_FILE)
  return file === undefined ? [] : secretsFromEnv(parseEnvFile(file))
}

function parseDecodeArgs(args: string[]): { token?: string; salt?: string; error?: string } {
  const parsed: { token?: string; salt?: string; error?: string } = {}
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === "--salt") {
      const salt = args[++i]
      if (salt === undefined) return { error: "--salt needs a value" }
      parsed.salt = salt
    } else if (arg.startsWith("--")) {
      return { error: `Unknown option: ${arg}` }
    } else if (parsed.token === undefined) {
      parsed.token = arg
    } else {
      return { error: "Only one token can be decoded at a time" }
    }
  }
  return parsed
}

async function decodeCommand(args: string[], io: CliIO, parseEnvFile: (text: string) => EnvRecord): Promise<number> {
  const { token, salt, error } = parseDecodeArgs(args)
  if (error !== undefined) return usageError(io, error)
  if (token === undefined) return usageError(io, "decode needs a token")
  const secret = cliSecrets(io, parseEnvFile)
  if (secret.length === 0) {
    io.err(`No secret: set AUTH_SECRET in the environment or in ${ENV_FILE}.`)
    return 1
  }
  const salts = salt !== undefined ? [salt] : [SECURE_SESSION_COOKIE_NAME, SESSION_COOKIE_NAME]
  let failure: unknown
  for (const candidate of salts) {
    try {
      const payload = await decode({ token, secret, salt: candidate })
      io.out(JSON.stringify(payload, null, 2))
      return 0
    } catch (caught) {
      // A specific failure (expired, malformed) says more than "no secret matched this salt".
      if (failure === undefined || failure instanceof NoMatchingSecretError) failure = caught
    }
  }
  io.err(`Could not decode the token (tried salt ${salts.map((s) => `"${s}"`).join(" and ")}).`)
  io.err(failure instanceof LatchkeyError ? `${failure.code}: ${failure.message}` : "The token could not be read.")
  return 1
}

function usageError(io: CliIO, message: string): number {
  io.err(`${message}\n\n${USAGE}`)
  return 2
}

/** Runs the CLI with `args` (without the node and script paths) and answers the exit code. */
export async function runCli(args: string[], io: CliIO, parseEnvFile: (text: string) => EnvRecord): Promise<number> {
  const [command, ...rest] = args
  // Asking for help is not a usage error: the command's usage, on stdout, exit 0.
  if (command !== undefined && Object.hasOwn(COMMAND_USAGE, command) && (rest.includes("--help") || rest.includes("-h"))) {
    io.out(`Usage:\n${COMMAND_USAGE[command]}`)
    return 0
  }
  switch (command) {
    case "secret":
      return secretCommand(rest, io)
    case "decode":
      return decodeCommand(rest, io, parseEnvFile)
    case "init":
      return initCommand(rest, io, parseEnvFile)
    case "schema":
      return schemaCommand(rest, io)
    case "migrate":
      return migrateCommand(rest, io)
    case "doctor":
      return doctorCommand(rest, io)
    case "--version":
    case "-v":
      io.out(io.version())
      return 0
    case undefined:
    case "help":
    case "--help":
    case "-h":
      io.out(USAGE)
      return command === undefined ? 2 : 0
    default:
      return usageError(io, `Unknown command: ${command}`)
  }
}
