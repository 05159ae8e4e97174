// FLOAT16 bit patterns <-> canonical float text (docs/canonical-values.md: a FLOAT16 is
// given as its exact double; a NaN's 10 mantissa bits become the top mantissa bits of
// the double, its sign kept). canonical.mjs has the FLOAT (32-bit) helpers only.

import { doubleBits, doubleFromBits, formatDouble, parseDouble } from '../lib/canonical.mjs'

const EXPONENT_MASK = 0x7c00
const MANTISSA_MASK = 0x03ff
const SIGN_BIT = 0x8000
const MANTISSA_BITS = 10
const EXPONENT_BIAS = 15
const DOUBLE_EXPONENT_ALL_ONES = 0x7ff0000000000000n
const DOUBLE_MANTISSA_BITS = 52n

/** The double of a FLOAT16 bit pattern (a NaN's payload widened as the canonical values say). */
export function float16ToDouble (bits) {
  const sign = bits & SIGN_BIT ? -1 : 1
  const exponent = (bits & EXPONENT_MASK) >> MANTISSA_BITS
  const mantissa = bits & MANTISSA_MASK
  if (exponent === EXPONENT_MASK >> MANTISSA_BITS) {
    if (mantissa === 0) return sign * Infinity
    const payload = BigInt(mantissa) << (DOUBLE_MANTISSA_BITS - BigInt(MANTISSA_BITS))
    return doubleFromBits((bits & SIGN_BIT ? 1n << 63n : 0n) | DOUBLE_EXPONENT_ALL_ONES | payload)
  }
  if (exponent === 0) return sign * mantissa * 2 ** (1 - EXPONENT_BIAS - MANTISSA_BITS)
  return sign * (1 + mantissa / 2 ** MANTISSA_BITS) * 2 ** (exponent - EXPONENT_BIAS)
}

/** The canonical text of a FLOAT16 bit pattern. */
export function formatFloat16Bits (bits) {
  return formatDouble(float16ToDouble(bits))
}

let byDoubleBits = null // double bits -> FLOAT16 bits, for every non-NaN FLOAT16

/** The FLOAT16 bits of a canonical float text; the text must name a FLOAT16 value exactly
 * (the case validation guarantees it), so the lookup is over the 63,490 non-NaN patterns. */
export function float16Bits (text) {
  const x = parseDouble(text)
  const bits = doubleBits(x)
  if (Number.isNaN(x)) {
    const payload = Number((bits >> (DOUBLE_MANTISSA_BITS - BigInt(MANTISSA_BITS))) & BigInt(MANTISSA_MASK))
    return (bits >> 63n ? SIGN_BIT : 0) | EXPONENT_MASK | payload
  }
  if (!byDoubleBits) {
    byDoubleBits = new Map()
    for (let h = 0; h <= 0xffff; h++) {
      const d = float16ToDouble(h)
      if (!Number.isNaN(d)) byDoubleBits.set(doubleBits(d), h)
    }
  }
  const half = byDoubleBits.get(bits)
  if (half === undefined) throw new RangeError(`${text} is not exactly a FLOAT16 value`)
  return half
}
