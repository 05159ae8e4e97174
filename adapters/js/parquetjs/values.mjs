// One primitive value as parquetjs's cursor returned it -> its canonical JSON value.
//
// Translation only: a Date is a count of milliseconds, scaled up exactly to the column's
// unit; a number or BigInt is an integer checked against the column's range; bytes are
// hex. A value the canonical form cannot hold exactly, or a JS value of another type than
// its column's (parquetjs never checks an annotation against the physical type: a bad
// file's BSON on DOUBLE reads as numbers), is a LossyConversion error: the library
// returned data, which the adapter cannot express. Nothing is corrected.

import { LossyConversion } from '../lib/protocol.mjs'
import { formatDouble, formatDecimal, bigIntFromBytes, toHex } from '../lib/canonical.mjs'

const NS_PER_UNIT = { ms: 1000000n, us: 1000n, ns: 1n }
const MS_PER_DAY = 86400000
// Every decimal of at most 15 significant digits (DBL_DIG) is told apart by its double.
const MAX_EXACT_DECIMAL = 10n ** 15n

/** The canonical value of `v`, a non-null value of a column of canonical `type`. */
export function primitiveValue (type, v, where) {
  const wrong = () => new LossyConversion(`${where}: parquetjs returned ${describe(v)} for a ${type.kind} column`)
  switch (type.kind) {
    case 'boolean':
      if (typeof v !== 'boolean') throw wrong()
      return v
    case 'int': return integerValue(type, v, where, wrong)
    case 'float':
      if (typeof v !== 'number') throw wrong()
      return formatDouble(v)
    case 'decimal': return decimalValue(type, v, where, wrong)
    case 'date':
      if (v instanceof Date) return exactMillis(v, where) / MS_PER_DAY
      return integerValue({ bits: 32, signed: true }, v, where, wrong)
    case 'time':
      return integerValue({ bits: type.unit === 'ms' ? 32 : 64, signed: true }, v, where, wrong)
    case 'timestamp':
    case 'int96': return instantValue(type.unit ?? 'ns', v, where, wrong)
    case 'string':
    case 'enum':
      if (typeof v === 'string') return v
      if (!isBytes(v)) throw wrong()
      return utf8(v, where)
    case 'json':
    case 'bson':
      if (isBytes(v)) return type.kind === 'json' ? utf8(v, where) : toHex(v)
      throw new LossyConversion(`${where}: parquetjs returns ${type.kind.toUpperCase()} values parsed ` +
        `(${describe(v)}); the bytes in the file are not recoverable`)
    case 'uuid':
      if (!isBytes(v) || v.length !== 16) throw wrong()
      return toHex(v).replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-')
    case 'interval':
      if (typeof v?.months !== 'number') throw wrong()
      return [v.months, v.days, v.milliseconds]
    case 'unknown':
      throw wrong() // an UNKNOWN column holds only nulls
    default: // binary, fixed
      if (!isBytes(v)) throw wrong()
      return toHex(v)
  }
}

function isBytes (v) {
  return v instanceof Uint8Array
}

function utf8 (bytes, where) {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    throw new LossyConversion(`${where}: the bytes are not UTF-8`)
  }
}

function describe (v) {
  if (typeof v === 'bigint') return `${v}n`
  if (v instanceof Date) return `Date(${v.getTime()})`
  if (isBytes(v)) return `bytes ${toHex(v)}`
  return `${typeof v} ${JSON.stringify(v)}`
}

/** An integer of a number or BigInt, checked against INT(bits, signed). */
function integerValue ({ bits, signed }, v, where, wrong) {
  if (typeof v === 'number' && !Number.isSafeInteger(v)) {
    if (!Number.isInteger(v)) throw wrong()
    throw new LossyConversion(`${where}: parquetjs returned ${v}, beyond a JS number's exact integers`)
  }
  if (typeof v !== 'number' && typeof v !== 'bigint') throw wrong()
  const n = BigInt(v)
  const low = signed ? -(1n << BigInt(bits - 1)) : 0n
  const high = (signed ? 1n << BigInt(bits - 1) : 1n << BigInt(bits)) - 1n
  if (n < low || n > high) {
    throw new LossyConversion(`${where}: parquetjs returned ${describe(v)}, outside INT(${bits}, ${signed ? 'signed' : 'unsigned'})`)
  }
  return bits <= 32 ? Number(n) : String(n)
}

function exactMillis (date, where) {
  const ms = date.getTime()
  if (Number.isNaN(ms)) throw new LossyConversion(`${where}: parquetjs returned an invalid Date (outside +-8.64e15 ms)`)
  return ms
}

/** A timestamp count in `unit`: a Date (milliseconds) is scaled up exactly. */
function instantValue (unit, v, where, wrong) {
  if (v instanceof Date) return String(BigInt(exactMillis(v, where)) * NS_PER_UNIT.ms / NS_PER_UNIT[unit])
  return integerValue({ bits: 64, signed: true }, v, where, wrong)
}

/** DECIMAL bytes (FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY) exactly; a JS number only when it
 * holds at most 15 significant digits, and is the double of a decimal of the column's scale. */
function decimalValue ({ scale }, v, where, wrong) {
  if (isBytes(v)) return formatDecimal(bigIntFromBytes(v), scale)
  if (typeof v === 'bigint') return formatDecimal(v, scale)
  if (typeof v !== 'number') throw wrong()
  const text = Number.isFinite(v) && Math.abs(v) < 1e21 ? v.toFixed(scale) : null
  const unscaled = text === null ? null : BigInt(text.replace('.', ''))
  if (unscaled === null || Number(text) !== v || unscaled >= MAX_EXACT_DECIMAL || -unscaled >= MAX_EXACT_DECIMAL) {
    throw new LossyConversion(`${where}: parquetjs returned the decimal as the JS number ${v}, ` +
      `which holds no exact DECIMAL with scale ${scale} (more than 15 significant digits, or not a decimal of that scale)`)
  }
  return formatDecimal(unscaled, scale)
}
