export { type ClientIpOptions, type ClientIpPlatform, clientIp } from './client-ip'

declare module 'hono' {
  interface ContextVariableMap {
    /** The client address `clientIp()` derived for the platform; `undefined` when there is none. */
    clientIp: string | undefined
  }
}
