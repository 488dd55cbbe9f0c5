// The `palisade` executable (dist/cli.js). Exits explicitly: the app's stores (timers, a Redis
// connection) would otherwise keep the process alive after the command is done.
import { main } from './main'

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error)
    process.exit(2)
  },
)
