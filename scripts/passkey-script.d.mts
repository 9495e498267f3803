/** Where the generated passkey script module lives. */
export const GENERATED: string
/** The generated module's source for the current client code. */
export function passkeyScriptModule(): string
/** Writes the generated module when it changed. */
export function writePasskeyScript(): void
