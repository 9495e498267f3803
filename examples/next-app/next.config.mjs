import { dirname } from "node:path"
import { fileURLToPath } from "node:url"

/** @type {import("next").NextConfig} */
const nextConfig = {
  // What create-next-app turns on (Next.js 16.4): the app is built and tested with Next's defaults.
  cacheComponents: true,
  partialPrefetching: true,
  // This folder is the app's root, although it sits inside the latchkey repository (with a lockfile of its own).
  turbopack: { root: dirname(fileURLToPath(import.meta.url)) },
  devIndicators: false,
}

export default nextConfig
