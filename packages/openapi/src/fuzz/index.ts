/**
 * @palisade/openapi/fuzz — contract fuzzing from the document, through `app.request()`. Needs the
 * optional peers fast-check and ajv; never imported by the root entry.
 */

export { formatFailure, formatSkipped, fuzz } from './fuzz'
export type {
  FuzzAuth,
  FuzzFailure,
  FuzzOperation,
  FuzzOptions,
  FuzzReport,
  FuzzRequest,
  FuzzSkipped,
} from './types'
