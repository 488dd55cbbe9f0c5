// Loader hooks for start-modules.mjs (they run on the loader's thread).
import { appendFileSync } from 'node:fs'

let file
export function initialize(data) {
  file = data
}
export async function load(url, context, nextLoad) {
  if (file) appendFileSync(file, `${url}\n`)
  return nextLoad(url, context)
}
