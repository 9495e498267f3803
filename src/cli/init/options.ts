/**
 * The flags of `latchkey init`, read without judging them: `--framework`, `--provider` (a comma
 * list, and the flag may repeat), `--database` and `--yes`. Each takes its value as the next
 * argument or after `=`. Whether a name is known is decided later, where "did you mean" can help.
 */

/** What the flags asked for. */
export interface InitFlags {
  framework?: string
  providers?: string[]
  database?: string
  /** Take the default for every question that has one, and ask nothing. */
  yes: boolean
  help: boolean
}

const VALUED = ["--framework", "--provider", "--providers", "--database"] as const

function splitFlag(arg: string): [flag: string, inline: string | undefined] {
  const at = arg.indexOf("=")
  return at === -1 ? [arg, undefined] : [arg.slice(0, at), arg.slice(at + 1)]
}

function store(flags: InitFlags, flag: (typeof VALUED)[number], value: string): void {
  if (flag === "--framework") flags.framework = value
  else if (flag === "--database") flags.database = value
  else flags.providers = [...(flags.providers ?? []), ...value.split(",").map((name) => name.trim()).filter((name) => name !== "")]
}

/** The flags in `args`, or the first problem with them. */
export function parseInitFlags(args: string[]): InitFlags | { error: string } {
  const flags: InitFlags = { yes: false, help: false }
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = splitFlag(args[i]!)
    if (flag === "--yes" || flag === "-y") flags.yes = true
    else if (flag === "--help" || flag === "-h") flags.help = true
    else if ((VALUED as readonly string[]).includes(flag)) {
      const value = inline ?? args[++i]
      if (value === undefined || value === "" || value.startsWith("--")) return { error: `${flag} needs a value` }
      store(flags, flag as (typeof VALUED)[number], value)
    } else return { error: `Unknown option for init: ${args[i]}` }
  }
  return flags
}
