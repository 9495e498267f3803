// Regenerates src/providers/logos.ts from the installed simple-icons.
import { writeFileSync } from "node:fs"
import * as icons from "simple-icons"
import { renderLogos } from "./provider-logos.mjs"

writeFileSync(new URL("../src/providers/logos.ts", import.meta.url), renderLogos(icons))
console.log("logos.ts written")
