// `node --import ./start-modules.mjs …`: appends the URL of every module the process loads
// through the ESM loader to the file named by START_MODULES_FILE, one a line. The start suite
// counts them by origin; it is not used while timing.
import { register } from 'node:module'

register('./start-module-hooks.mjs', import.meta.url, { data: process.env.START_MODULES_FILE })
