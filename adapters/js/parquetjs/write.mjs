// A case -> one file written by parquetjs's ParquetWriter.
//
// The canonical schema becomes a ParquetSchema definition (one JS object per field:
// `type`, `optional`/`repeated`, `fields` for groups, and per leaf `encoding`,
// `compression`, `statistics`), each row a record of the JS values parquetjs takes
// (numbers, BigInt, Date, Buffer, nested objects and arrays), and the write options
// the writer's options (useDataPageV2, rowGroupSize, pageSize, pageIndex, bloomFilters).

import { createWriteStream } from 'node:fs'
import { createRequire } from 'node:module'
import { Unsupported } from '../lib/protocol.mjs'
import { parseDouble, parseDecimal, bigIntToBytes, fromHex } from '../lib/canonical.mjs'

const { ParquetSchema, ParquetWriter } = createRequire(import.meta.url)('@dsnp/parquetjs')

/** The codecs compression.js implements (PARQUET_COMPRESSION_METHODS). */
export const CODECS = ['UNCOMPRESSED', 'GZIP', 'SNAPPY', 'BROTLI']
// No limit: one row group per file, one page per column chunk, unless the case asks.
const UNLIMITED = Number.MAX_SAFE_INTEGER
const MS_PER_DAY = 86400000
// Date's range (ECMA-262, 'Time Values and Time Range'): +-8.64e15 ms.
const MAX_DATE_MS = 8.64e15
// DECIMAL(INT64) values travel as JS numbers; every decimal of at most 15 significant
// digits (DBL_DIG) survives a double exactly.
const MAX_EXACT_DECIMAL = 10n ** 15n
// types.js: DECIMAL without typeLength goes on BYTE_ARRAY above this precision, INT64 up to it.
const MAX_INT64_DECIMAL_PRECISION = 18
// The repeated field of each legacy 2-level list style (LogicalTypes.md, 'Lists').
const LEGACY_LIST_NAMES = { two_level: () => 'element', array: () => 'array', tuple: name => `${name}_tuple` }
const MAP_NAMES = { standard: ['key_value', 'key', 'value'], misnamed: ['map', 'map_key', 'map_value'] }
// JS objects list integer-like keys first, so such names would reorder a ParquetSchema.
const INTEGER_LIKE = /^(0|[1-9][0-9]*)$/

/** Handle a `write` request: `{ok: true}` once parquetjs has written the file. */
export async function write ({ path, case: testCase }) {
  const options = testCase.options
  const leafOptions = leafSettings(options)
  const columns = fieldsOf(testCase.schema, leafOptions, options.nested_style)
  const schema = new ParquetSchema(Object.fromEntries(columns.map(c => [c.name, c.definition])))
  const records = testCase.rows.map(row =>
    Object.fromEntries(columns.map((c, i) => [c.name, c.convert(row[i])])))
  const stream = createWriteStream(path)
  try {
    const writer = await ParquetWriter.openStream(schema, stream, writerOptions(testCase))
    for (const record of records) await writer.appendRow(record)
    await writer.close()
  } catch (error) {
    // End (not destroy) the stream: the writer may still have writes in flight.
    await new Promise(resolve => stream.end(resolve))
    throw error
  }
  return { ok: true }
}

/** The settings every leaf gets: its encoding, codec and statistics switch. */
function leafSettings (options) {
  if (options.page_version === 2 && !options.v2_is_compressed && options.codec !== 'UNCOMPRESSED') {
    throw new Unsupported('writer.js encodeDataPageV2 sets is_compressed = (compression !== ' +
      "'UNCOMPRESSED'): a compressed column cannot have is_compressed=false")
  }
  const settings = { encoding: options.encoding ?? 'PLAIN', compression: options.codec }
  if (options.statistics === false) settings.statistics = false
  return settings
}

function writerOptions ({ options, rows }) {
  if (options.page_index && options.statistics === false) {
    throw new Unsupported('writer.js encodeColumnChunk writes a ColumnIndex only with statistics')
  }
  const bloomFilters = options.bloom_filter_columns.map(column => ({
    column,
    ...(options.bloom_filter_ndv !== null && { numDistinct: options.bloom_filter_ndv }),
    ...(options.bloom_filter_fpp !== null && { falsePositiveRate: options.bloom_filter_fpp })
  }))
  return {
    useDataPageV2: options.page_version === 2,
    rowGroupSize: options.row_group_size ?? UNLIMITED,
    // ParquetWriter.appendRow cuts a page when pageRowCount >= pageSize: rows, not bytes.
    pageSize: options.page_row_limit ?? UNLIMITED,
    ...(options.page_index !== null && { pageIndex: options.page_index }),
    bloomFilters
  }
}

/** Each canonical field as {name, definition, convert}: convert takes a canonical value. */
function fieldsOf (fields, leafOptions, style) {
  const integerLike = fields.find(f => INTEGER_LIKE.test(f.name))
  if (integerLike) {
    throw new Unsupported(`field name ${JSON.stringify(integerLike.name)}: a ParquetSchema is a JS ` +
      'object, which lists integer-like keys first, so the columns would change order')
  }
  return fields.map(f => field(f, leafOptions, style))
}

function field (f, leafOptions, style) {
  if (f.type.kind === 'list' && style === 'unannotated' && f.nullable) {
    throw new Unsupported(`an unannotated repeated field is a required list; ${f.name} is nullable`)
  }
  const node = typeNode(f.type, f.name, leafOptions, style)
  return { name: f.name, definition: { ...node.definition, optional: f.nullable }, convert: node.convert }
}

/** A type's definition (without its repetition) and converter. */
function typeNode (type, name, leafOptions, style) {
  switch (type.kind) {
    case 'struct': return struct(type, leafOptions, style)
    case 'list': return list(type, name, leafOptions, style)
    case 'map': return map(type, leafOptions, style)
    default: return leaf(type, leafOptions)
  }
}

function nullSafe (convert) {
  return value => value === null ? null : convert(value)
}

function struct (type, leafOptions, style) {
  const children = fieldsOf(type.fields, leafOptions, style)
  return {
    definition: { fields: Object.fromEntries(children.map(c => [c.name, c.definition])) },
    convert: nullSafe(value => Object.fromEntries(children.map(c => [c.name, c.convert(value[c.name])])))
  }
}

function list (type, name, leafOptions, style) {
  if (!(style in LEGACY_LIST_NAMES || style === 'unannotated')) { // the map styles keep standard lists
    const element = field({ ...type.element, name: 'element' }, leafOptions, style)
    return {
      definition: { type: 'LIST', fields: { list: { repeated: true, fields: { element: element.definition } } } },
      convert: nullSafe(value => ({ list: value.map(e => ({ element: element.convert(e) })) }))
    }
  }
  if (type.element.nullable) throw new Unsupported(`a ${style} list holds required elements only`)
  const element = typeNode(type.element.type, name, leafOptions, style)
  if (style === 'unannotated') {
    // 'Nested Types': a bare repeated field is a required list; the caller's
    // `optional: false` plus `repeated: true` makes it REPEATED.
    return { definition: { ...element.definition, repeated: true }, convert: nullSafe(value => value.map(element.convert)) }
  }
  const repeatedName = LEGACY_LIST_NAMES[style](name)
  return {
    definition: { type: 'LIST', fields: { [repeatedName]: { ...element.definition, repeated: true } } },
    convert: nullSafe(value => ({ [repeatedName]: value.map(element.convert) }))
  }
}

function map (type, leafOptions, style) {
  if (style === 'map_key_value') throw new Unsupported('parquetjs never writes MAP_KEY_VALUE')
  const [keyValueName, keyName, valueName] = MAP_NAMES[style] ?? MAP_NAMES.standard // list styles: standard maps
  const key = field({ ...type.key, name: keyName }, leafOptions, style)
  const value = field({ ...type.value, name: valueName }, leafOptions, style)
  const keyValue = { repeated: true, fields: { [keyName]: key.definition, [valueName]: value.definition } }
  return {
    definition: { type: 'MAP', fields: { [keyValueName]: keyValue } },
    convert: nullSafe(pairs => ({
      [keyValueName]: pairs.map(([k, v]) => ({ [keyName]: key.convert(k), [valueName]: value.convert(v) }))
    }))
  }
}

/** A primitive column: the parquetjs type and the JS value it takes. */
function leaf (type, leafOptions) {
  const { definition, convert } = primitive(type)
  const settings = { ...leafOptions }
  if (settings.encoding === 'RLE') {
    // Encodings.md: RLE encodes BOOLEAN values; parquetjs takes its bit width from typeLength.
    if (definition.type !== 'BOOLEAN') throw new Unsupported(`RLE is a value encoding for BOOLEAN only, not ${type.kind}`)
    settings.typeLength = 1
  }
  return { definition: { ...definition, ...settings }, convert: nullSafe(convert) }
}

function primitive (type) {
  switch (type.kind) {
    case 'boolean': return { definition: { type: 'BOOLEAN' }, convert: v => v }
    case 'int': return integer(type)
    case 'float':
      if (type.bits === 16) break
      return { definition: { type: type.bits === 32 ? 'FLOAT' : 'DOUBLE' }, convert: parseDouble }
    case 'binary': return { definition: { type: 'BYTE_ARRAY' }, convert: v => Buffer.from(fromHex(v)) }
    case 'fixed':
      return { definition: { type: 'FIXED_LEN_BYTE_ARRAY', typeLength: type.length }, convert: v => Buffer.from(fromHex(v)) }
    case 'string': return { definition: { type: 'UTF8' }, convert: v => v }
    case 'decimal': return decimal(type)
    case 'date': return { definition: { type: 'DATE' }, convert: days => jsDate(days * MS_PER_DAY, `DATE ${days} days`) }
    case 'time': return temporal(type, 'TIME')
    case 'timestamp': return temporal(type, 'TIMESTAMP')
    case 'interval':
      return { definition: { type: 'INTERVAL' }, convert: ([months, days, milliseconds]) => ({ months, days, milliseconds }) }
  }
  throw new Unsupported(`parquetjs has no type for ${JSON.stringify(type)}`)
}

function integer ({ bits, signed }) {
  const name = bits === 32 || bits === 64 ? (signed ? `INT${bits}` : `UINT_${bits}`) : `${signed ? 'INT' : 'UINT'}_${bits}`
  return { definition: { type: name }, convert: bits === 64 ? v => BigInt(v) : v => v }
}

/** TIME_MILLIS (number), TIME_MICROS (BigInt), TIMESTAMP_MILLIS (Date), TIMESTAMP_MICROS (BigInt). */
function temporal ({ unit, utc }, kind) {
  if (!utc || unit === 'ns') throw new Unsupported(`parquetjs writes no ${kind}(${unit}, utc=${utc})`)
  const type = `${kind}_${unit === 'ms' ? 'MILLIS' : 'MICROS'}`
  if (type === 'TIMESTAMP_MILLIS') return { definition: { type }, convert: millisDate }
  return { definition: { type }, convert: unit === 'ms' ? v => v : v => BigInt(v) }
}

function millisDate (text) {
  return jsDate(Number(text), `TIMESTAMP_MILLIS ${text} ms`)
}

/** parquetjs takes DATE and TIMESTAMP_MILLIS values as JS Dates (its README's example, and
 * what it reads back); a number it accepts only in [0, 2^53) (types.js toNumberInternal). */
function jsDate (ms, what) {
  if (Math.abs(ms) > MAX_DATE_MS) throw new Unsupported(`${what} is outside a JS Date's +-8.64e15 ms`)
  return new Date(ms)
}

/** DECIMAL on FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY (big-endian bytes) or INT64 (a JS number). */
function decimal ({ physical, precision, scale, length }) {
  const definition = { type: 'DECIMAL', precision, scale }
  if (physical === 'FIXED_LEN_BYTE_ARRAY') {
    return { definition: { ...definition, typeLength: length }, convert: v => Buffer.from(bigIntToBytes(parseDecimal(v), length)) }
  }
  const onByteArray = precision > MAX_INT64_DECIMAL_PRECISION
  if ((physical === 'BYTE_ARRAY') !== onByteArray || physical === 'INT32') {
    throw new Unsupported(`parquetjs puts DECIMAL(${precision}, ${scale}) on ${onByteArray ? 'BYTE_ARRAY' : 'INT64'} ` +
      `(types.js getParquetTypeDataObject), not ${physical}`)
  }
  if (onByteArray) return { definition, convert: v => Buffer.from(minimalBytes(parseDecimal(v))) }
  return { definition, convert: decimalNumber }
}

function decimalNumber (text) {
  const unscaled = parseDecimal(text)
  if (unscaled >= MAX_EXACT_DECIMAL || -unscaled >= MAX_EXACT_DECIMAL) {
    throw new Unsupported(`parquetjs takes DECIMAL(INT64) values as JS numbers (codec/plain.js ` +
      `encodeValues_INT64 multiplies them by 10^scale); ${text} has no exact double`)
  }
  return Number(text)
}

/** The shortest big-endian two's-complement bytes of a BigInt. */
function minimalBytes (value) {
  let length = 1
  while (value >= 1n << BigInt(8 * length - 1) || value < -(1n << BigInt(8 * length - 1))) length++
  return bigIntToBytes(value, length)
}
