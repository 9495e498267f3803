/**
 * The effects the CLI's commands need, in a file of its own so every command (and the config
 * loader they share) can name it without importing the dispatcher in commands.ts, which imports them.
 */
import type { EnvRecord } from "../env.js"

/** The effects the commands need. */
export interface CliIO {
  env: EnvRecord
  out(line: string): void
  err(line: string): void
  /** The contents of a file in the working directory, or `undefined` when it does not exist. */
  readFile(name: string): string | undefined
  writeFile(name: string, contents: string): void
  /** The installed package's version. */
  version(): string
  /** Imports a module of the app by its path from the working directory (`schema` and `doctor` read the app's config). */
  importModule?(name: string): Promise<unknown>
  /** Asks a yes/no question; absent, or not a terminal, means no (`--yes` answers it up front). */
  confirm?(question: string): Promise<boolean>
}
