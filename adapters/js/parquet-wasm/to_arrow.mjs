// Canonical schema and rows (docs/canonical-values.md) -> an apache-arrow Table, built
// from raw buffers so that every bit survives: 64-bit integers from their decimal
// text, floats (NaN payloads included) from their bit patterns, decimals as two's
// complement words.
//
// The Arrow types are those arrow-rs (inside parquet-wasm) turns into the Parquet
// type the case asks for; `writtenPhysical` says which physical type arrow-rs gives
// each one, so a case asking for another layout is refused instead of written wrong.

import * as arrow from 'apache-arrow'
import { Unsupported } from '../lib/protocol.mjs'
import { float32Bits, doubleBits, parseDouble, parseDecimal, fromHex } from '../lib/canonical.mjs'
import { float16Bits } from './float16.mjs'

const TIME_TYPES = { ms: arrow.TimeMillisecond, us: arrow.TimeMicrosecond, ns: arrow.TimeNanosecond }
const TIMESTAMP_TYPES = {
  ms: arrow.TimestampMillisecond, us: arrow.TimestampMicrosecond, ns: arrow.TimestampNanosecond
}
// arrow-rs writes TIME(isAdjustedToUTC=true) for an Arrow time field carrying this
// metadata key (measured: Time32(ms) with it -> TIME(isAdjustedToUTC=true, MILLIS)).
const TIME_UTC_METADATA = 'adjusted_to_utc'
const UTC = 'UTC'
const MAP_ENTRIES = 'key_value'
const DECIMAL128_MAX_PRECISION = 38
// Measured with parquet-wasm 0.8.0 (parquet-rs 59.3.0): DECIMAL(2..9) -> INT32,
// DECIMAL(1) and DECIMAL(10..18) -> INT64, above -> FIXED_LEN_BYTE_ARRAY of the
// fewest bytes that hold the precision.
const DECIMAL_INT32_PRECISION = [2, 9]
const DECIMAL_INT64_MAX_PRECISION = 18

/** The Arrow type arrow-rs writes as the canonical type `type`. */
export function arrowType (type) {
  switch (type.kind) {
    case 'boolean': return new arrow.Bool()
    case 'int': return new arrow.Int(type.signed, type.bits)
    case 'float': return { 16: new arrow.Float16(), 32: new arrow.Float32(), 64: new arrow.Float64() }[type.bits]
    case 'binary': return new arrow.Binary()
    case 'string': return new arrow.Utf8()
    case 'fixed': return new arrow.FixedSizeBinary(type.length)
    case 'decimal': return new arrow.Decimal(type.scale, type.precision,
      type.precision > DECIMAL128_MAX_PRECISION ? 256 : 128)
    case 'date': return new arrow.DateDay()
    case 'time': return new TIME_TYPES[type.unit]()
    case 'timestamp': return new TIMESTAMP_TYPES[type.unit](type.utc ? UTC : null)
    case 'unknown': return new arrow.Null()
    case 'list': return new arrow.List(arrowField(type.element))
    case 'map': return new arrow.Map_(new arrow.Field(MAP_ENTRIES,
      new arrow.Struct([arrowField(type.key), arrowField(type.value)]), false))
    case 'struct': return new arrow.Struct(type.fields.map(arrowField))
  }
  // The capabilities declare these cannot_write; a case reaching here is a harness bug.
  throw new Unsupported(`no Arrow type for canonical kind ${type.kind}`)
}

/** The Arrow field of a canonical field. */
export function arrowField (field) {
  const utcTime = field.type.kind === 'time' && field.type.utc
  const metadata = utcTime ? new Map([[TIME_UTC_METADATA, '']]) : new Map()
  return new arrow.Field(field.name, arrowType(field.type), field.nullable, metadata)
}

/** {physical, length} arrow-rs writes for a primitive canonical type (measured). */
export function writtenPhysical (type) {
  switch (type.kind) {
    case 'boolean': return { physical: 'BOOLEAN' }
    case 'int': return { physical: type.bits === 64 ? 'INT64' : 'INT32' }
    case 'float': return type.bits === 16 ? { physical: 'FIXED_LEN_BYTE_ARRAY', length: 2 }
      : { physical: type.bits === 32 ? 'FLOAT' : 'DOUBLE' }
    case 'binary': case 'string': return { physical: 'BYTE_ARRAY' }
    case 'fixed': return { physical: 'FIXED_LEN_BYTE_ARRAY', length: type.length }
    case 'decimal': return decimalPhysical(type.precision)
    case 'date': case 'unknown': return { physical: 'INT32' }
    case 'time': return { physical: type.unit === 'ms' ? 'INT32' : 'INT64' }
    case 'timestamp': return { physical: 'INT64' }
  }
  throw new Unsupported(`no Arrow type for canonical kind ${type.kind}`)
}

function decimalPhysical (precision) {
  const [low, high] = DECIMAL_INT32_PRECISION
  if (precision >= low && precision <= high) return { physical: 'INT32' }
  if (precision <= DECIMAL_INT64_MAX_PRECISION) return { physical: 'INT64' }
  return { physical: 'FIXED_LEN_BYTE_ARRAY', length: decimalBytes(precision) }
}

/** The fewest bytes of a two's complement integer holding every `precision`-digit number. */
function decimalBytes (precision) {
  const largest = 10n ** BigInt(precision) - 1n
  let bytes = 1
  while (largest >= 1n << BigInt(8 * bytes - 1)) bytes++
  return bytes
}

/** The leaves of a canonical field as [dotted path, type]. */
export function leaves (field, prefix = '') {
  const path = prefix + field.name
  const { type } = field
  const children = type.kind === 'list' ? [type.element]
    : type.kind === 'map' ? [type.key, type.value]
      : type.kind === 'struct' ? type.fields : null
  if (!children) return [[path, type]]
  return children.flatMap(child => leaves(child, path + '.'))
}

/** An apache-arrow Table holding the canonical `schema` and `rows`. */
export function arrowTable (schema, rows) {
  const fields = schema.map(arrowField)
  const columns = schema.map((field, i) => columnData(field.type, fields[i].type, rows.map(row => row[i])))
  const struct = new arrow.Struct(fields)
  const batch = new arrow.RecordBatch(new arrow.Schema(fields),
    arrow.makeData({ type: struct, length: rows.length, nullCount: 0, children: columns }))
  return new arrow.Table([batch])
}

/** The Arrow Data of one column: `values` are canonical values of `type` (null allowed). */
function columnData (type, arrowType, values) {
  const length = values.length
  if (type.kind === 'unknown') return arrow.makeData({ type: arrowType, length })
  const { nullBitmap, nullCount } = validity(values)
  const base = { type: arrowType, length, nullCount, nullBitmap }
  switch (type.kind) {
    case 'list': return listData(base, type.element, arrowType.children[0].type, values)
    case 'map': return mapData(base, type, arrowType.children[0].type, values)
    case 'struct': return arrow.makeData({
      ...base,
      children: type.fields.map((f, i) => columnData(f.type, arrowType.children[i].type,
        values.map(v => v === null ? null : v[f.name])))
    })
    case 'binary': case 'string': return variableWidthData(base, type.kind, values)
  }
  return arrow.makeData({ ...base, data: fixedWidthBuffer(type, values) })
}

function validity (values) {
  const bitmap = new Uint8Array(Math.ceil(values.length / 8))
  let nullCount = 0
  values.forEach((v, i) => {
    if (v === null) nullCount++
    else bitmap[i >> 3] |= 1 << (i & 7)
  })
  return { nullBitmap: nullCount ? bitmap : undefined, nullCount }
}

function listData (base, element, elementArrowType, values) {
  const offsets = offsetsOf(values.map(v => v === null ? 0 : v.length))
  const child = columnData(element.type, elementArrowType, values.flatMap(v => v ?? []))
  return arrow.makeData({ ...base, valueOffsets: offsets, child })
}

function mapData (base, type, entriesType, values) {
  const offsets = offsetsOf(values.map(v => v === null ? 0 : v.length))
  const pairs = values.flatMap(v => v ?? [])
  const child = arrow.makeData({
    type: entriesType,
    length: pairs.length,
    nullCount: 0,
    children: [columnData(type.key.type, entriesType.children[0].type, pairs.map(p => p[0])),
      columnData(type.value.type, entriesType.children[1].type, pairs.map(p => p[1]))]
  })
  return arrow.makeData({ ...base, valueOffsets: offsets, child })
}

function offsetsOf (lengths) {
  const offsets = new Int32Array(lengths.length + 1)
  lengths.forEach((n, i) => { offsets[i + 1] = offsets[i] + n })
  return offsets
}

function variableWidthData (base, kind, values) {
  const encoder = new TextEncoder()
  const parts = values.map(v => v === null ? new Uint8Array(0)
    : kind === 'string' ? encoder.encode(v) : fromHex(v))
  const data = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  const offsets = offsetsOf(parts.map(p => p.length))
  parts.forEach((p, i) => data.set(p, offsets[i]))
  return arrow.makeData({ ...base, valueOffsets: offsets, data })
}

/** The values buffer of a fixed-width column; a null slot holds zeros. */
function fixedWidthBuffer (type, values) {
  const n = values.length
  switch (type.kind) {
    case 'boolean': {
      const bits = new Uint8Array(Math.ceil(n / 8))
      values.forEach((v, i) => { if (v) bits[i >> 3] |= 1 << (i & 7) })
      return bits
    }
    case 'int': return intBuffer(type, values)
    case 'float': return floatBuffer(type.bits, values)
    case 'fixed': return fixedBytes(type.length, values.map(v => v === null ? null : fromHex(v)))
    case 'decimal': return decimalBuffer(type.precision, values)
    case 'date': return Int32Array.from(values, v => v ?? 0)
    case 'time': return type.unit === 'ms' ? Int32Array.from(values, v => v ?? 0)
      : BigInt64Array.from(values, v => BigInt(v ?? 0))
    case 'timestamp': return BigInt64Array.from(values, v => BigInt(v ?? 0))
  }
  throw new Unsupported(`no Arrow buffer for canonical kind ${type.kind}`)
}

function intBuffer (type, values) {
  const ArrayType = {
    '8true': Int8Array, '16true': Int16Array, '32true': Int32Array, '64true': BigInt64Array,
    '8false': Uint8Array, '16false': Uint16Array, '32false': Uint32Array, '64false': BigUint64Array
  }[`${type.bits}${type.signed}`]
  return type.bits === 64 ? ArrayType.from(values, v => BigInt(v ?? 0)) : ArrayType.from(values, v => v ?? 0)
}

function floatBuffer (bits, values) {
  if (bits === 16) return Uint16Array.from(values, v => v === null ? 0 : float16Bits(v))
  if (bits === 32) return new Float32Array(Uint32Array.from(values, v => v === null ? 0 : float32Bits(v)).buffer)
  // Through the bits, not the number: a NaN's payload is kept whatever the engine does.
  const words = BigUint64Array.from(values, v => v === null ? 0n : doubleBits64(v))
  return new Float64Array(words.buffer)
}

function doubleBits64 (text) {
  return text.startsWith('nan:0x') ? BigInt('0x' + text.slice(6)) : doubleBits(parseDouble(text))
}

function fixedBytes (width, parts) {
  const out = new Uint8Array(width * parts.length)
  parts.forEach((p, i) => { if (p) out.set(p, i * width) })
  return out
}

/** Decimal128 (or Decimal256 above 38 digits): little-endian two's complement words. */
function decimalBuffer (precision, values) {
  const words = precision > DECIMAL128_MAX_PRECISION ? 4 : 2
  const out = new BigUint64Array(words * values.length)
  values.forEach((v, i) => {
    let rest = v === null ? 0n : parseDecimal(v)
    for (let w = 0; w < words; w++) {
      out[i * words + w] = BigInt.asUintN(64, rest)
      rest >>= 64n
    }
  })
  return new Uint32Array(out.buffer)
}
