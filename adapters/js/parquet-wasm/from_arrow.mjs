// An apache-arrow Table (what parquet-wasm read) -> the canonical document
// (docs/canonical-values.md, 'The document').
//
// The schema is arrow-rs's view of the file, type by type; the values are read from
// the raw buffers (64-bit words, decimal words, float bit patterns), never through
// apache-arrow's `get`, which turns 64-bit values and timestamps into lossy numbers.

import * as arrow from 'apache-arrow'
import { LossyConversion } from '../lib/protocol.mjs'
import { doubleFromBits, formatDouble, formatDecimal, formatFloat32Bits, toHex } from '../lib/canonical.mjs'
import { formatFloat16Bits } from './float16.mjs'

const { Type, Precision, TimeUnit, DateUnit, IntervalUnit } = arrow
const UNITS = { [TimeUnit.MILLISECOND]: 'ms', [TimeUnit.MICROSECOND]: 'us', [TimeUnit.NANOSECOND]: 'ns' }
const FLOAT_BITS = { [Precision.HALF]: 16, [Precision.SINGLE]: 32, [Precision.DOUBLE]: 64 }
const TIME_UTC_METADATA = 'adjusted_to_utc' // arrow-rs's mark of TIME(isAdjustedToUTC=true)
const NANOS_PER_MILLI = 1000000n
const CANONICAL_VERSION = 1
const DOUBLE_EXPONENT_MASK = 0x7ff0000000000000n
const DOUBLE_MANTISSA_MASK = 0x000fffffffffffffn
const QUIET_NAN_BITS = 0x7ff8000000000000n

/** The canonical document of an apache-arrow Table. */
export function canonicalDocument (table) {
  const schema = table.schema.fields.map(canonicalField)
  const rows = []
  for (const batch of table.batches) {
    if (batch.numRows === 0) continue // apache-arrow may leave an empty batch's nested children out
    const readers = schema.map((field, i) => cellReader(field.type, batch.data.children[i]))
    for (let r = 0; r < batch.numRows; r++) rows.push(readers.map(read => read(r)))
  }
  return { canonical_version: CANONICAL_VERSION, schema, rows }
}

function canonicalField (field) {
  return { name: field.name, nullable: field.nullable, type: canonicalType(field) }
}

/** The canonical type of an Arrow field's type (no `physical`: this is the reader's view). */
function canonicalType (field) {
  const t = field.type
  switch (t.typeId) {
    case Type.Null: return { kind: 'unknown' }
    case Type.Bool: return { kind: 'boolean' }
    case Type.Int: return { kind: 'int', bits: t.bitWidth, signed: t.isSigned }
    case Type.Float: return { kind: 'float', bits: FLOAT_BITS[t.precision] }
    case Type.Binary: case Type.LargeBinary: return { kind: 'binary' }
    case Type.Utf8: case Type.LargeUtf8: return { kind: 'string' }
    case Type.FixedSizeBinary: return { kind: 'fixed', length: t.byteWidth }
    case Type.Decimal: return { kind: 'decimal', precision: t.precision, scale: t.scale }
    case Type.Date: if (t.unit === DateUnit.DAY) return { kind: 'date' }; break
    case Type.Time: if (t.unit in UNITS) {
      return { kind: 'time', unit: UNITS[t.unit], utc: field.metadata.has(TIME_UTC_METADATA) }
    } break
    case Type.Timestamp: if (t.unit in UNITS) {
      return { kind: 'timestamp', unit: UNITS[t.unit], utc: t.timezone != null }
    } break
    case Type.Interval: return { kind: 'interval', length: 12 }
    case Type.List: case Type.LargeList: case Type.FixedSizeList:
      return { kind: 'list', element: canonicalField(t.children[0]) }
    case Type.Map: return {
      kind: 'map',
      key: canonicalField(t.children[0].type.children[0]),
      value: canonicalField(t.children[0].type.children[1])
    }
    case Type.Struct: return { kind: 'struct', fields: t.children.map(canonicalField) }
    case Type.Dictionary: return canonicalType({ type: t.dictionary, metadata: field.metadata })
  }
  throw new LossyConversion(`Arrow type ${t} has no canonical type`)
}

/** A function from a row index of `data` to its canonical value. */
function cellReader (type, data) {
  const value = valueReader(type, data)
  return i => data.getValid(i) ? value(i) : null
}

function valueReader (type, data) {
  if (data.typeId === Type.Dictionary) return dictionaryReader(type, data)
  const v = data.values
  switch (type.kind) {
    case 'unknown': return () => null
    case 'boolean': return i => (v[i >> 3] >> (i & 7) & 1) === 1
    case 'int': return type.bits === 64 ? i => v[i].toString() : i => v[i]
    case 'float': return floatReader(type.bits, v)
    case 'binary': return i => toHex(v.subarray(Number(data.valueOffsets[i]), Number(data.valueOffsets[i + 1])))
    case 'string': {
      const decoder = new TextDecoder('utf-8', { fatal: true })
      return i => decoder.decode(v.subarray(Number(data.valueOffsets[i]), Number(data.valueOffsets[i + 1])))
    }
    case 'fixed': return i => toHex(v.subarray(i * type.length, (i + 1) * type.length))
    case 'decimal': return decimalReader(type, data)
    case 'date': return i => v[i]
    case 'time': return type.unit === 'ms' ? i => v[i] : i => v[i].toString()
    case 'timestamp': return i => v[i].toString()
    case 'interval': return intervalReader(data)
    case 'list': return listReader(type, data)
    case 'map': return mapReader(type, data)
    case 'struct': {
      const children = type.fields.map((f, k) => [f.name, cellReader(f.type, data.children[k])])
      return i => Object.fromEntries(children.map(([name, read]) => [name, read(i)]))
    }
  }
  throw new LossyConversion(`no canonical value for ${type.kind}`)
}

/** A dictionary-encoded column: its indices into the dictionary vector's chunks. */
function dictionaryReader (type, data) {
  const chunks = data.dictionary.data.map(chunk => [chunk.length, cellReader(type, chunk)])
  return i => {
    let k = Number(data.values[i])
    for (const [length, read] of chunks) {
      if (k < length) return read(k)
      k -= length
    }
    throw new RangeError(`dictionary index ${data.values[i]} out of range`)
  }
}

function floatReader (bits, values) {
  if (bits === 16) return i => formatFloat16Bits(values[i])
  // Through the bits: reading a Float32Array element as a number would quiet a NaN.
  if (bits === 32) {
    const words = new Uint32Array(values.buffer, values.byteOffset, values.length)
    return i => formatFloat32Bits(words[i])
  }
  const words = new BigUint64Array(values.buffer, values.byteOffset, values.length)
  return i => formatDoubleBits(words[i])
}

/** A double's canonical text from its bits (a NaN never passes through a JS number). */
function formatDoubleBits (bits) {
  if ((bits & DOUBLE_EXPONENT_MASK) !== DOUBLE_EXPONENT_MASK || (bits & DOUBLE_MANTISSA_MASK) === 0n) {
    return formatDouble(doubleFromBits(bits))
  }
  return bits === QUIET_NAN_BITS ? 'nan' : 'nan:0x' + bits.toString(16).padStart(16, '0')
}

/** Decimals: `bitWidth / 32` little-endian 32-bit words of two's complement per value. */
function decimalReader (type, data) {
  const words = data.type.bitWidth / 32
  const v = data.values
  return i => {
    let unscaled = 0n
    for (let w = words - 1; w >= 0; w--) unscaled = (unscaled << 32n) | BigInt(v[i * words + w])
    return formatDecimal(BigInt.asIntN(data.type.bitWidth, unscaled), type.scale)
  }
}

/** An Arrow interval as canonical [months, days, milliseconds], each the uint32 the file holds. */
function intervalReader (data) {
  const v = data.values
  const u32 = x => x >>> 0
  switch (data.type.unit) {
    case IntervalUnit.YEAR_MONTH: return i => [u32(v[i]), 0, 0]
    case IntervalUnit.DAY_TIME: return i => [0, u32(v[2 * i]), u32(v[2 * i + 1])]
    case IntervalUnit.MONTH_DAY_NANO: {
      const view = new DataView(v.buffer, v.byteOffset, v.byteLength)
      return i => {
        const nanos = view.getBigInt64(16 * i + 8, true)
        if (nanos % NANOS_PER_MILLI !== 0n) throw new LossyConversion(`interval of ${nanos} ns is no whole count of milliseconds`)
        return [u32(view.getInt32(16 * i, true)), u32(view.getInt32(16 * i + 4, true)), Number(BigInt.asUintN(32, nanos / NANOS_PER_MILLI))]
      }
    }
  }
  throw new LossyConversion(`Arrow interval unit ${data.type.unit} has no canonical value`)
}

function listReader (type, data) {
  const element = cellReader(type.element.type, data.children[0])
  const bounds = listBounds(data)
  return i => {
    const out = []
    const [start, end] = bounds(i)
    for (let k = start; k < end; k++) out.push(element(k))
    return out
  }
}

/** Where list `i` lies in the child values: by its offsets, or by the width of a
 * fixed_size_list (an Arrow type arrow-rs restores from a file's ARROW:schema). */
function listBounds (data) {
  if (data.typeId === Type.FixedSizeList) {
    const width = data.type.listSize
    return i => [i * width, (i + 1) * width]
  }
  const offsets = data.valueOffsets
  return i => [Number(offsets[i]), Number(offsets[i + 1])]
}

function mapReader (type, data) {
  const entries = data.children[0]
  const key = cellReader(type.key.type, entries.children[0])
  const value = cellReader(type.value.type, entries.children[1])
  const offsets = data.valueOffsets
  return i => {
    const out = []
    for (let k = Number(offsets[i]); k < Number(offsets[i + 1]); k++) out.push([key(k), value(k)])
    return out
  }
}
