// Reading: a Parquet file -> the canonical document, with hyparquet.
//
// The canonical schema is built from the file's schema elements (physical type,
// logical/converted type, repetition), following LogicalTypes.md's backward-compatibility
// rules for lists and maps. The values are what hyparquet returns, translated. Where
// hyparquet's own conversion would lose information, the adapter asks it for the stored
// values instead, through documented options:
//
// - `utf8: false`: unannotated BYTE_ARRAY stays bytes (README, 'Binary columns');
// - `parsers` (types.d.ts, "custom parsers to decode advanced types"): timestamps, INT96,
//   dates, JSON, GEOMETRY and GEOGRAPHY come back as stored (counts, bytes), not as a
//   millisecond Date or parsed JSON;
// - `metadata` with the DECIMAL, FLOAT16 and (unshredded) VARIANT annotations taken off
//   the copy hyparquet reads with: it then returns the stored integers/bytes instead of a
//   float64 Number (DECIMAL), a Number without its NaN payload (FLOAT16) or a decoded JS
//   value without its Variant type (VARIANT). The canonical schema keeps the annotations.

import fs from 'node:fs'
import { parquetMetadata, parquetRead, parquetSchema } from 'hyparquet'
import { decompress as decompressZstd } from 'fzstd'
import { decompressBrotli } from 'hyparquet-compressors/src/brotli.js'
import { gunzip } from 'hyparquet-compressors/src/gzip.js'
import { decompressLz4, decompressLz4Raw } from 'hyparquet-compressors/src/lz4.js'
import { LossyConversion } from '../lib/protocol.mjs'
import { bigIntFromBytes, formatDecimal, formatDouble, toHex } from '../lib/canonical.mjs'

// hyparquet-compressors' decompressors (its src/compressors.js), but for SNAPPY: that one is
// a wasm module (hysnappy) instantiated when the package is imported, and V8 reserves about
// 10 GiB of address space for a wasm memory, more than the 8 GiB RLIMIT_AS the matrix gives a
// reader (conformance/matrix/isolation.py); measured there: "RangeError:
// WebAssembly.Instance(): Out of memory: Cannot allocate Wasm memory for new instance".
// SNAPPY is left to hyparquet's own decoder (src/snappy.js).
const DECOMPRESSORS = {
  GZIP: (input, length) => gunzip(input, new Uint8Array(length)),
  BROTLI: decompressBrotli,
  ZSTD: input => decompressZstd(input),
  LZ4: decompressLz4,
  LZ4_RAW: decompressLz4Raw,
}
const asStored = value => value
const STORED_VALUE_PARSERS = {
  timestampFromMilliseconds: asStored,
  timestampFromMicroseconds: asStored,
  timestampFromNanoseconds: asStored,
  dateFromDays: asStored,
  jsonFromBytes: asStored,
  geometryFromBytes: asStored,
  geographyFromBytes: asStored,
}
const UNIT = { MILLIS: 'ms', MICROS: 'us', NANOS: 'ns' }
const CONVERTED_INTS = {
  INT_8: [8, true], INT_16: [16, true], INT_32: [32, true], INT_64: [64, true],
  UINT_8: [8, false], UINT_16: [16, false], UINT_32: [32, false], UINT_64: [64, false],
}
const PHYSICAL_KINDS = {
  BOOLEAN: { kind: 'boolean' }, INT32: { kind: 'int', bits: 32, signed: true },
  INT64: { kind: 'int', bits: 64, signed: true }, INT96: { kind: 'int96' },
  FLOAT: { kind: 'float', bits: 32 }, DOUBLE: { kind: 'float', bits: 64 }, BYTE_ARRAY: { kind: 'binary' },
}
const UTF8 = new TextDecoder('utf-8', { fatal: true })

/** The read handler: the whole file as a canonical document. */
export async function readFile(request) {
  const buffer = fs.readFileSync(request.file)
  const file = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength)
  const metadata = parquetMetadata(file)
  const columns = parquetSchema(metadata).children
  const rows = await readRows(file, storedValueMetadata(metadata))
  // hyparquet has read the file: from here on, what has no canonical form is a LossyConversion
  const fields = columns.map(canonicalField)
  return {
    document: {
      canonical_version: 1,
      schema: fields,
      rows: rows.map(row => fields.map((field, i) => canonicalValue(field, row[i]))),
    },
  }
}

function readRows(file, metadata) {
  return new Promise((resolve, reject) => {
    parquetRead({ file, metadata, compressors: DECOMPRESSORS, utf8: false, geoparquet: false,
      parsers: STORED_VALUE_PARSERS, onComplete: resolve }).catch(reject)
  })
}

/** A copy of the metadata whose DECIMAL, FLOAT16 and VARIANT elements are unannotated. */
function storedValueMetadata(metadata) {
  const schema = metadata.schema.map(element => {
    const logical = element.logical_type?.type
    if (element.converted_type === 'DECIMAL' || logical === 'DECIMAL' || logical === 'FLOAT16' ||
        logical === 'VARIANT') {
      return { ...element, converted_type: undefined, logical_type: undefined }
    }
    return element
  })
  return { ...metadata, schema }
}

// ---- the canonical schema, from the schema tree ----

/** The canonical field of a schema node (a REPEATED node outside a LIST/MAP is a list). */
function canonicalField(node) {
  const { name, repetition_type: repetition } = node.element
  if (repetition === 'REPEATED') {
    return { name, nullable: false, type: { kind: 'list', element: requiredField(node, 'element') } }
  }
  return { name, nullable: repetition !== 'REQUIRED', type: canonicalType(node) }
}

function requiredField(node, name) {
  return { name, nullable: false, type: canonicalType(node) }
}

function canonicalType(node) {
  const { element, children } = node
  if (!children.length) return primitiveType(element)
  const annotation = element.logical_type?.type ?? element.converted_type
  if (annotation === 'LIST') return listType(node)
  if (annotation === 'MAP' || annotation === 'MAP_KEY_VALUE') return mapType(node)
  if (annotation === 'VARIANT') {
    if (children.some(child => child.element.name === 'typed_value')) {
      throw new LossyConversion(`VARIANT column ${element.name} is shredded: hyparquet reassembles a ` +
        'shredded variant into a JS value (variant.js decodeVariantColumn), which keeps no Variant ' +
        'type (int8/int64, decimal scale), and has no option to return its binaries')
    }
    return { kind: 'variant' }
  }
  return { kind: 'struct', fields: children.map(canonicalField) }
}

/** LogicalTypes.md, 'Lists' and its backward-compatibility rules. */
function listType(node) {
  const repeated = node.children[0]
  const legacyStruct = repeated.children.length > 1 || repeated.element.name === 'array' ||
    repeated.element.name === `${node.element.name}_tuple`
  let element
  if (!repeated.children.length) element = requiredField(repeated, 'element')
  else if (legacyStruct) {
    element = { name: 'element', nullable: false, type: { kind: 'struct', fields: repeated.children.map(canonicalField) } }
  }
  else element = { ...canonicalField(repeated.children[0]), name: 'element' }
  return { kind: 'list', element }
}

/** LogicalTypes.md, 'Maps': the repeated group's first child is the key, the second the value. */
function mapType(node) {
  const [key, value] = node.children[0].children
  return {
    kind: 'map',
    key: { ...canonicalField(key), name: 'key', nullable: false },
    value: { ...canonicalField(value), name: 'value' },
  }
}

function primitiveType(element) {
  const physical = element.type
  if (!physical) throw new LossyConversion(`schema element ${element.name} is a group without children: no canonical type`)
  const logical = element.logical_type ?? {}
  const converted = element.converted_type
  const unannotated = physical === 'FIXED_LEN_BYTE_ARRAY'
    ? { kind: 'fixed', length: element.type_length }
    : { ...PHYSICAL_KINDS[physical] }
  const type = annotatedType(element, logical, converted) ?? unannotated
  return { ...type, physical }
}

function annotatedType(element, logical, converted) {
  const { type_length: length } = element
  switch (logical.type) {
  case 'STRING': return { kind: 'string' }
  case 'ENUM': return { kind: 'enum' }
  case 'JSON': return { kind: 'json' }
  case 'BSON': return { kind: 'bson' }
  case 'UUID': return { kind: 'uuid', length }
  case 'FLOAT16': return { kind: 'float', bits: 16 }
  case 'DATE': return { kind: 'date' }
  case 'NULL': return { kind: 'unknown' }
  case 'DECIMAL': return decimalType(element, logical.precision, logical.scale)
  case 'INTEGER': return { kind: 'int', bits: logical.bitWidth, signed: logical.isSigned }
  case 'TIME': return { kind: 'time', unit: UNIT[logical.unit], utc: logical.isAdjustedToUTC }
  case 'TIMESTAMP': return { kind: 'timestamp', unit: UNIT[logical.unit], utc: logical.isAdjustedToUTC }
  case 'GEOMETRY': return withDefined({ kind: 'geometry', crs: logical.crs })
  case 'GEOGRAPHY': {
    const algorithm = logical.algorithm === 'SPHERICAL' ? undefined : logical.algorithm // the default
    return withDefined({ kind: 'geography', crs: logical.crs, algorithm })
  }
  }
  if (converted in CONVERTED_INTS) {
    const [bits, signed] = CONVERTED_INTS[converted]
    return { kind: 'int', bits, signed }
  }
  switch (converted) {
  case 'UTF8': return { kind: 'string' }
  case 'ENUM': return { kind: 'enum' }
  case 'JSON': return { kind: 'json' }
  case 'BSON': return { kind: 'bson' }
  case 'DATE': return { kind: 'date' }
  case 'DECIMAL': return decimalType(element, element.precision, element.scale ?? 0)
  case 'TIME_MILLIS': return { kind: 'time', unit: 'ms', utc: true }
  case 'TIME_MICROS': return { kind: 'time', unit: 'us', utc: true }
  case 'TIMESTAMP_MILLIS': return { kind: 'timestamp', unit: 'ms', utc: true }
  case 'TIMESTAMP_MICROS': return { kind: 'timestamp', unit: 'us', utc: true }
  case 'INTERVAL': return { kind: 'interval', length: 12 }
  }
  return undefined
}

function decimalType(element, precision, scale) {
  const type = { kind: 'decimal', precision, scale }
  if (element.type === 'FIXED_LEN_BYTE_ARRAY') type.length = element.type_length
  return type
}

function withDefined(object) {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined))
}

// ---- values: what hyparquet returned -> canonical JSON ----

/** A field's canonical value. hyparquet returning what the field's type cannot hold (a null
 * in a REQUIRED field, a boolean for a DATE) has no canonical form: a LossyConversion. */
function canonicalValue(field, value) {
  if (value === null || value === undefined) {
    if (!field.nullable) throw new LossyConversion(`hyparquet returned ${value} for REQUIRED field ${field.name}`)
    return null
  }
  return VALUE_TRANSLATORS[field.type.kind](value, field.type, field.name)
}

function expect(ok, value, what, name) {
  if (!ok) throw new LossyConversion(`hyparquet returned ${describe(value)} for ${what} field ${name}`)
}

const DESCRIBED_LENGTH = 200

function describe(value) {
  const json = JSON.stringify(value, (key, item) =>
    typeof item === 'bigint' ? `${item}n` : item instanceof Uint8Array ? `bytes ${toHex(item)}` : item)
  return `${typeof value} ${json ?? String(value)}`.slice(0, DESCRIBED_LENGTH)
}

function bytesOf(value, type, name) {
  expect(value instanceof Uint8Array && (type.length === undefined || value.length === type.length),
    value, type.length === undefined ? type.kind : `${type.kind}(${type.length})`, name)
  return value
}

function text(value, type, name) {
  try {
    return UTF8.decode(bytesOf(value, type, name))
  } catch (error) {
    if (error instanceof LossyConversion) throw error
    throw new LossyConversion(`${type.kind} field ${name} holds bytes that are not UTF-8 text: ${toHex(value)}`)
  }
}

const INTEGER_KINDS = ['int', 'int96', 'date', 'time', 'timestamp']
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** An integer count: a JSON number up to 32 bits (int, date, time in ms), else a decimal string. */
function count(value, type, name) {
  expect(typeof value === 'bigint' || Number.isInteger(value), value, type.kind, name)
  if (type.kind === 'int') expect(fitsInt(BigInt(value), type), value, `INT(${type.bits}, ${type.signed})`, name)
  const small = (type.kind === 'int' && type.bits <= 32) || type.kind === 'date' ||
    (type.kind === 'time' && type.unit === 'ms')
  return small ? Number(value) : String(value)
}

function fitsInt(value, { bits, signed }) {
  const width = BigInt(bits)
  return signed ? BigInt.asIntN(bits, value) === value : value >= 0n && value < (1n << width)
}

function float(value, type, name) {
  if (type.bits === 16) return formatFloat16(bytesOf(value, { ...type, length: 2 }, name))
  expect(typeof value === 'number', value, type.kind, name)
  return formatDouble(value)
}

const FLOAT16_EXPONENT_MASK = 0x7c00
const FLOAT16_MANTISSA_MASK = 0x03ff
const FLOAT16_TO_FLOAT64_PAYLOAD_SHIFT = 42n // 52 - 10 mantissa bits

/** A FLOAT16 (two little-endian bytes) as its canonical double; a NaN keeps sign and payload. */
function formatFloat16(bytes) {
  const bits = bytes[0] | (bytes[1] << 8)
  const sign = bits >> 15 ? -1 : 1
  const exponent = (bits & FLOAT16_EXPONENT_MASK) >> 10
  const mantissa = bits & FLOAT16_MANTISSA_MASK
  if (exponent === 0x1f && mantissa) {
    const payload = BigInt(mantissa) << FLOAT16_TO_FLOAT64_PAYLOAD_SHIFT
    const nanBits = (BigInt(bits >> 15) << 63n) | 0x7ff0000000000000n | payload
    return nanBits === 0x7ff8000000000000n ? 'nan' : 'nan:0x' + nanBits.toString(16).padStart(16, '0')
  }
  if (exponent === 0x1f) return sign > 0 ? 'inf' : '-inf'
  const magnitude = exponent ? (1 + mantissa / 1024) * 2 ** (exponent - 15) : (mantissa / 1024) * 2 ** -14
  return formatDouble(sign * magnitude)
}

function decimal(value, type, name) {
  let unscaled
  if (value instanceof Uint8Array) unscaled = bigIntFromBytes(value)
  else if (typeof value === 'bigint' || Number.isInteger(value)) unscaled = BigInt(value)
  else expect(false, value, type.kind, name)
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().length
  expect(digits <= type.precision, value, `DECIMAL(${type.precision}, ${type.scale})`, name)
  return formatDecimal(unscaled, type.scale)
}

function interval(value, type, name) {
  const bytes = bytesOf(value, type, name) // length 12
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return [0, 4, 8].map(offset => view.getUint32(offset, true))
}

function variant(value, type, name) {
  expect(value.metadata instanceof Uint8Array, value, type.kind, name)
  const VARIANT_NULL = '00' // VariantEncoding.md: a present group without a value is Variant null
  const bytes = value.value == null ? VARIANT_NULL : toHex(bytesOf(value.value, type, name))
  return { metadata: toHex(value.metadata), value: bytes }
}

function list(value, type, name) {
  expect(Array.isArray(value), value, 'list', name)
  return value.map(item => canonicalValue(type.element, item))
}

/** hyparquet returns a MAP as a plain JS object: its keys come back as property names. */
function map(value, type, name) {
  expect(typeof value === 'object' && !Array.isArray(value), value, 'map', name)
  return Object.entries(value).map(([key, item]) =>
    [mapKey(key, type.key.type, name), canonicalValue(type.value, item)])
}

function mapKey(key, type, name) {
  if (type.kind === 'string') return key
  // an integer's property name is its decimal text, which gives the integer back
  if (INTEGER_KINDS.includes(type.kind) && /^-?\d+$/.test(key)) return count(BigInt(key), type, name)
  if (type.kind === 'boolean' && (key === 'true' || key === 'false')) return key === 'true'
  throw new LossyConversion(`hyparquet returns MAP ${name} as a JS object, whose property names ` +
    `cannot hold a ${type.kind} key (got ${JSON.stringify(key)})`)
}

function struct(value, type, name) {
  expect(typeof value === 'object' && !Array.isArray(value) && !(value instanceof Uint8Array), value, 'struct', name)
  return Object.fromEntries(type.fields.map(field => [field.name, canonicalValue(field, value[field.name])]))
}

function unknown(value, type, name) {
  expect(false, value, 'UNKNOWN (always null)', name)
}

const VALUE_TRANSLATORS = {
  boolean: (value, type, name) => { expect(typeof value === 'boolean', value, 'boolean', name); return value },
  int: count,
  int96: count,
  float,
  binary: (value, type, name) => toHex(bytesOf(value, type, name)),
  bson: (value, type, name) => toHex(bytesOf(value, type, name)),
  fixed: (value, type, name) => toHex(bytesOf(value, type, name)),
  geometry: (value, type, name) => toHex(bytesOf(value, type, name)),
  geography: (value, type, name) => toHex(bytesOf(value, type, name)),
  string: (value, type, name) => { expect(typeof value === 'string', value, 'string', name); return value },
  enum: text,
  json: text,
  uuid: (value, type, name) => { expect(UUID_TEXT.test(value), value, 'uuid', name); return value },
  decimal,
  date: count,
  time: count,
  timestamp: count,
  interval,
  unknown,
  variant,
  list,
  map,
  struct,
}
