// Regenerates src/providers/logos/<id>.ts, one module per provider mark, from simple-icons. One
// module each, so an app's bundle (and its sign-in page) carries only its own providers' marks.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import * as icons from "simple-icons"
import { renderLogo, SIMPLE_ICONS } from "./provider-logos.mjs"

const dir = new URL("../src/providers/logos/", import.meta.url)
mkdirSync(dir, { recursive: true })
for (const file of readdirSync(dir)) if (!(file.replace(/\.ts$/, "") in SIMPLE_ICONS)) rmSync(new URL(file, dir))
for (const id of Object.keys(SIMPLE_ICONS)) writeFileSync(new URL(`${id}.ts`, dir), renderLogo(id, icons))
console.log(`${Object.keys(SIMPLE_ICONS).length} logo modules written`)
