// The type tests' shared compile: a file checked on its own with the TypeScript API, strict, as an
// app on a bundler would check it, so `vitest run` alone catches a type regression that only
// `tsc -p tsconfig.json` would otherwise report.
import { fileURLToPath } from "node:url"
import ts from "typescript"

/** The options an app's strict bundler build uses, with the package's `imports` (`#crypto-backend`, `#development`, `#password-kdf`) mapped onto their Node sources. */
export const STRICT_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
  types: ["node"],
  paths: {
    "#crypto-backend": [fileURLToPath(new URL("../../src/jwt/backend/node.ts", import.meta.url))],
    "#development": [fileURLToPath(new URL("../../src/handler/development.ts", import.meta.url))],
    "#password-kdf": [fileURLToPath(new URL("../../src/passwords/kdf/node.ts", import.meta.url))],
  },
}

/** Every diagnostic of the test file at `fileUrl` (pass `import.meta.url`), as flat messages. */
export function strictDiagnostics(fileUrl: string): string[] {
  const program = ts.createProgram([fileURLToPath(fileUrl)], STRICT_OPTIONS)
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))
}
