import type { XssSanitized } from './xss-sanitize'

export {
  sanitizedBody,
  sanitizedQuery,
  type XssSanitized,
  type XssSanitizeOptions,
  xssSanitize,
} from './xss-sanitize'

declare module 'hono' {
  interface ContextVariableMap {
    /** Set by `xssSanitize()`; read it with `sanitizedBody(c)` / `sanitizedQuery(c)`. */
    xssSanitized: XssSanitized
  }
}
