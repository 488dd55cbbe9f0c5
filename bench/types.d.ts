// Ambient declarations for the bench's untyped dependencies (their @types packages are not
// installed). Only what the bench touches is typed.

declare module 'autocannon' {
  interface Histogram {
    average: number
    p50: number
    p99: number
    total: number
  }
  interface Result {
    requests: Histogram
    latency: Histogram
    non2xx: number
    errors: number
    timeouts: number
    /** Seconds the load ran, to the hundredth. */
    duration: number
  }
  interface Options {
    url: string
    connections?: number
    duration?: number
    headers?: Record<string, string>
  }
  export default function autocannon(options: Options): Promise<Result>
}

declare module 'express'
declare module 'cors'
declare module 'express-session'
declare module 'cookie-parser'
