// What the generator will build and how long it searches. A schema can ask for more than a fuzz
// run can hold (`minLength: 10_000_000`) or for nothing at all (an email of at most 3
// characters, `^[a-z]{8}$` with `maxLength: 4`): both end as a `CannotGenerate` naming where in
// the request, which `fuzz()` reports for that operation before it goes on with the others.
import type * as FastCheck from 'fast-check'

type FC = typeof FastCheck
type Arbitrary<T> = FastCheck.Arbitrary<T>

/** Longest string generated; a longer `maxLength` is generated up to here, a longer `minLength` not at all. */
export const MAX_LENGTH = 4096
/** Most array items generated, likewise for `maxItems` and `minItems`. */
export const MAX_ITEMS = 256
/** Draws a filter gets for one value (a format or pattern within length bounds, a path segment). */
export const MAX_ATTEMPTS = 200

/** A value the generator cannot make at `pointer` (`/body/email`, `/query/limit`, `/path/id`). */
export class CannotGenerate extends Error {
  constructor(
    readonly pointer: string,
    readonly reason: string,
  ) {
    super(`could not generate ${pointer}: ${reason}`)
    this.name = 'CannotGenerate'
  }
}

/** `name` as a JSON pointer segment. */
export const segment = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1')

type GiveUp = <T>(
  arb: Arbitrary<T>,
  keep: (value: T) => boolean,
  pointer: string,
  what: string,
) => Arbitrary<T>
const giveUps = new WeakMap<FC, GiveUp>()

/** The filter class, made once per fast-check module: it extends the peer the fuzzer loaded. */
function giveUpFor(fc: FC): GiveUp {
  class GiveUpFilter<V> extends fc.Arbitrary<V> {
    constructor(
      readonly arb: Arbitrary<V>,
      readonly keep: (value: V) => boolean,
      readonly pointer: string,
      readonly what: string,
    ) {
      super()
    }
    generate(mrng: FastCheck.Random, biasFactor: number | undefined): FastCheck.Value<V> {
      for (let i = 0; i < MAX_ATTEMPTS; i++) {
        const value = this.arb.generate(mrng, biasFactor)
        if (this.keep(value.value)) return value
      }
      throw new CannotGenerate(this.pointer, `no ${this.what} in ${MAX_ATTEMPTS} attempts`)
    }
    canShrinkWithoutContext(value: unknown): value is V {
      return this.arb.canShrinkWithoutContext(value) && this.keep(value)
    }
    shrink(value: V, context: unknown): FastCheck.Stream<FastCheck.Value<V>> {
      return this.arb.shrink(value, context).filter((v) => this.keep(v.value))
    }
  }
  return (arb, keep, pointer, what) => new GiveUpFilter(arb, keep, pointer, what)
}

/**
 * `arb.filter(keep)` that gives up: after `MAX_ATTEMPTS` draws none of which passes, generating
 * throws `CannotGenerate(pointer, "no <what> in … attempts")` instead of drawing forever
 * (fast-check's own `filter` never stops). Shrinking keeps only values that pass, as `filter` does.
 */
export function filterOrGiveUp<T>(
  fc: FC,
  arb: Arbitrary<T>,
  keep: (value: T) => boolean,
  pointer: string,
  what: string,
): Arbitrary<T> {
  let giveUp = giveUps.get(fc)
  if (!giveUp) {
    giveUp = giveUpFor(fc)
    giveUps.set(fc, giveUp)
  }
  return giveUp(arb, keep, pointer, what)
}
