import type { BotInfo } from './classify'

export { botGuard } from './bot-guard'
export type { BotCategory } from './categories'
export type { BotInfo } from './classify'
export type { BotGuardOptions } from './config'
export type { BotResolver } from './verify'

declare module 'hono' {
  interface ContextVariableMap {
    /** What `botGuard()` made of the client: `{ category, name?, verified }`. */
    bot: BotInfo
  }
}
