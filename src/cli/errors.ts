/**
 * The errors of the `schema` and `doctor` commands, each with a stable `code` and a message that
 * names the fix. They are printed by the CLI, never thrown to an app.
 */
import { LatchkeyError } from "../errors.js"

/** `--config` names a file that does not exist. */
export class ConfigNotFoundError extends LatchkeyError {
  override readonly code = "ERR_CLI_CONFIG_NOT_FOUND"
}

/** The app's config module failed to load, or exports no configuration. */
export class ConfigLoadError extends LatchkeyError {
  override readonly code = "ERR_CLI_CONFIG_LOAD"
}

/** The config is TypeScript and this Node cannot strip types. */
export class TypeScriptConfigError extends LatchkeyError {
  override readonly code = "ERR_CLI_TYPESCRIPT_CONFIG"
}

/** A database URL the CLI cannot use. */
export class DatabaseUrlError extends LatchkeyError {
  override readonly code = "ERR_CLI_DATABASE_URL"
}

/** A schema the chosen adapter cannot hold, or options that contradict each other. */
export class SchemaOptionError extends LatchkeyError {
  override readonly code = "ERR_CLI_SCHEMA_OPTION"
}
