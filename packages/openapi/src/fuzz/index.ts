/**
 * @palisade/openapi/fuzz — contract fuzzing from the document, through `app.request()`. Needs the
 * optional peers fast-check and ajv; never imported by the root entry.
 */
export type {
  FuzzAuth,
  FuzzFailure,
  FuzzOperation,
  FuzzOptions,
  FuzzReport,
  FuzzRequest,
} from './fuzz'
export { formatFailure, fuzz } from './fuzz'
