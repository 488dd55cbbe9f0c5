// Terminal colours for the repository's check scripts (off when not a TTY or with NO_COLOR).
const useColor = process.stdout.isTTY && !process.env.NO_COLOR
const paint = (code, s) => (useColor ? `\x1b[${code}m${s}\x1b[0m` : s)
export const red = (s) => paint(31, s)
export const green = (s) => paint(32, s)
export const yellow = (s) => paint(33, s)
export const bold = (s) => paint(1, s)
