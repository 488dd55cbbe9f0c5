export { type LoggerOptions, logger } from './logger'
