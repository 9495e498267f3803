import adapter from "@sveltejs/adapter-node"
import { sveltekit } from "@sveltejs/kit/vite"
import { defineConfig } from "vite"

// SvelteKit 3 takes its configuration here (svelte.config.js is gone). ORIGIN, read at build time,
// is the app's public origin: adapter-node otherwise assumes https, which a plain-http local run
// is not, and SvelteKit's own CSRF check compares form posts against it.
export default defineConfig({
  plugins: [sveltekit({ adapter: adapter(), paths: { origin: process.env.ORIGIN } })],
})
