import type { MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS, type IdempotencySetup } from './answers'

/**
 * The `Idempotency-Key` value on the wire: one Structured Fields string (quoted; `\"` and `\\`
 * escaped) of 1 to 255 characters. The documented form leaves out what is allowed but unwise in
 * a key (spaces, parameters), so generated examples and fuzzed keys are plain.
 */
export const KEY_PATTERN = '^"(?:[!#-\\[\\]-~]|\\\\["\\\\]){1,255}"$'

/**
 * What `idempotency` adds to an operation of its methods: the `Idempotency-Key` request header
 * (required with `required: true`), its answers (`answers.ts`: 400, 409 with `Retry-After`, 422,
 * and 503 when a store that can fail is configured without `failOpen`), and the
 * `Idempotent-Replayed` header of a replayed answer.
 */
export function idempotencyDescription(
  methods: readonly string[],
  setup: IdempotencySetup,
  ttlMs: number,
): MiddlewareDescription {
  const retryAfter = {
    name: 'Retry-After',
    description: 'Seconds after which the first request holding this key has finished or expired',
    schema: { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
  } as const
  const hours = Math.round((ttlMs / 3_600_000) * 100) / 100
  return {
    middleware: 'idempotency',
    methods: [...methods],
    requestHeaders: [
      {
        name: 'Idempotency-Key',
        description: `A unique key per operation, as a Structured Fields string (e.g. "8e03978e-40d5-43e8-bc93-6894a57f9324"). A retry with the same key and request gets the first answer again for ${hours} h (5xx answers are not kept); the same key with another request is refused with 422.`,
        required: setup.required,
        schema: { type: 'string', pattern: KEY_PATTERN, maxLength: 512 },
      },
    ],
    responses: responsesOf(ANSWERS, setup, { 409: [retryAfter] }),
    headers: [
      {
        name: 'Idempotent-Replayed',
        description:
          '`true` when this is the stored answer of an earlier request with the same Idempotency-Key',
        schema: { type: 'string', enum: ['true'] },
      },
    ],
  }
}
