// Canonical values (docs/canonical-values.md) to and from JavaScript values.
//
// 64-bit integers, timestamps and decimals travel as decimal strings and live in
// JavaScript as BigInt; floats travel as the shortest text of their double (any text
// Python's float() parses to the same double is accepted), with NaN bit patterns
// spelled out; bytes travel as lowercase hex.

const QUIET_NAN_BITS = 0x7ff8000000000000n
const FLOAT32_MANTISSA_BITS = 23n
const FLOAT64_MANTISSA_BITS = 52n
const FLOAT32_EXPONENT_MASK = 0x7f800000
const FLOAT32_MANTISSA_MASK = 0x007fffff

const scratch = new DataView(new ArrayBuffer(8))

/** A double's 64 bits. */
export function doubleBits (x) {
  scratch.setFloat64(0, x)
  return scratch.getBigUint64(0)
}

/** The double with these 64 bits. */
export function doubleFromBits (bits) {
  scratch.setBigUint64(0, BigInt.asUintN(64, bits))
  return scratch.getFloat64(0)
}

/** A double as the canonical float text: "-0.0", "inf", "nan", "nan:0x<16 hex>". */
export function formatDouble (x) {
  if (Number.isNaN(x)) return formatNanBits(doubleBits(x))
  if (x === Infinity) return 'inf'
  if (x === -Infinity) return '-inf'
  if (Object.is(x, -0)) return '-0.0'
  return String(x)
}

function formatNanBits (bits) {
  return bits === QUIET_NAN_BITS ? 'nan' : 'nan:0x' + bits.toString(16).padStart(16, '0')
}

/** A FLOAT's 32 bits as the canonical text: its double, a NaN's payload widened into the
 * top mantissa bits of the double (as the canonical values define it). */
export function formatFloat32Bits (bits) {
  if ((bits & FLOAT32_EXPONENT_MASK) === FLOAT32_EXPONENT_MASK && (bits & FLOAT32_MANTISSA_MASK) !== 0) {
    const sign = BigInt(bits >>> 31) << 63n
    const payload = BigInt(bits & FLOAT32_MANTISSA_MASK) << (FLOAT64_MANTISSA_BITS - FLOAT32_MANTISSA_BITS)
    return formatNanBits(sign | 0x7ff0000000000000n | payload)
  }
  scratch.setUint32(0, bits)
  return formatDouble(scratch.getFloat32(0))
}

/** The double of a canonical float text. */
export function parseDouble (text) {
  if (text === 'nan') return NaN
  if (text.startsWith('nan:0x')) return doubleFromBits(BigInt('0x' + text.slice(6)))
  if (text === 'inf') return Infinity
  if (text === '-inf') return -Infinity
  return Number(text)
}

/** The 32 bits of the FLOAT a canonical float text stands for (a NaN's payload narrowed back). */
export function float32Bits (text) {
  const x = parseDouble(text)
  if (Number.isNaN(x)) {
    const bits = doubleBits(x)
    const sign = Number(bits >> 63n) << 31
    const payload = Number((bits >> (FLOAT64_MANTISSA_BITS - FLOAT32_MANTISSA_BITS)) & BigInt(FLOAT32_MANTISSA_MASK))
    return (sign | FLOAT32_EXPONENT_MASK | payload) >>> 0
  }
  scratch.setFloat32(0, x)
  return scratch.getUint32(0)
}

/** A decimal's unscaled BigInt as its canonical text, with exactly `scale` fraction digits. */
export function formatDecimal (unscaled, scale) {
  const negative = unscaled < 0n
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0')
  const text = scale > 0 ? digits.slice(0, -scale) + '.' + digits.slice(-scale) : digits
  return negative ? '-' + text : text
}

/** The unscaled BigInt of a canonical decimal text ("-0.05" -> -5n). */
export function parseDecimal (text) {
  return BigInt(text.replace('.', ''))
}

/** A big-endian two's-complement byte string as a BigInt (DECIMAL on binary). */
export function bigIntFromBytes (bytes) {
  let value = 0n
  for (const byte of bytes) value = (value << 8n) | BigInt(byte)
  return bytes.length && bytes[0] & 0x80 ? value - (1n << BigInt(8 * bytes.length)) : value
}

/** A BigInt as `length` big-endian two's-complement bytes. */
export function bigIntToBytes (value, length) {
  const bytes = new Uint8Array(length)
  let rest = BigInt.asUintN(8 * length, value)
  for (let i = length - 1; i >= 0; i--) {
    bytes[i] = Number(rest & 0xffn)
    rest >>= 8n
  }
  return bytes
}

export function toHex (bytes) {
  return Buffer.from(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, bytes.byteLength ?? bytes.length).toString('hex')
}

export function fromHex (text) {
  return new Uint8Array(Buffer.from(text, 'hex'))
}
