/** Installs an example app (examples/<name>) when needed and copies the current build in; answers its folder. */
export function prepareExample(name: "next-app" | "sveltekit-app", options?: { log?: (line: string) => void }): string
