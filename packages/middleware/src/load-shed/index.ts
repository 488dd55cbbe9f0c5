export {
  type LoadShedMiddleware,
  type LoadShedOptions,
  type LoadShedPressure,
  type LoadShedReason,
  loadShed,
  type PressureSample,
} from './load-shed'
