// Writing: a case (canonical schema, rows, WriteOptions) -> one file, with hyparquet-writer.
//
// The schema goes to parquetWriteFile as explicit SchemaElements (the README's 'Explicit
// Schema'), so every physical, logical and converted type is the case's, not guessed from
// the data; each top-level column goes in `columnData` as JS values in the form
// hyparquet-writer's unconvert.js takes them (BigInt for INT64 and unscaled decimals,
// Uint8Array for bytes, [key, value] pairs for maps). The options map to its knobs:
// codec -> `codec` (+ `compressors`), encoding -> each column's `encoding`, row_group_size ->
// `rowGroupSize`, statistics -> `statistics`, statistics_truncate_length ->
// `statisticsTruncateLength`, page_index -> each column's `columnIndex`/`offsetIndex`,
// bloom_filter_columns/fpp -> each column's `bloomFilter`, dictionary_size_limit ->
// `dictionarySize`. What it has no knob for is declared in the capabilities (adapter.mjs)
// or refused here with the measured reason.

import zlib from 'node:zlib'
import { parquetWriteFile, geojsonToWkb } from 'hyparquet-writer'
import { wkbToGeojson } from 'hyparquet/src/wkb.js'
import { Unsupported } from '../lib/protocol.mjs'
import { fromHex, parseDecimal, parseDouble } from '../lib/canonical.mjs'

// hyparquet-writer compresses SNAPPY itself and takes any other codec as a function
// (README: "compressors?: Compressors // custom compressors (default includes snappy,
// required for other codecs)"); node's zlib provides GZIP and BROTLI.
export const COMPRESSORS = {
  GZIP: bytes => zlib.gzipSync(bytes),
  BROTLI: bytes => zlib.brotliCompressSync(bytes),
}
// The physical types datapage.js encodes each encoding for (it throws for any other).
const ENCODING_PHYSICAL = {
  RLE: ['BOOLEAN'],
  DELTA_BINARY_PACKED: ['INT32', 'INT64'],
  DELTA_LENGTH_BYTE_ARRAY: ['BYTE_ARRAY'],
  DELTA_BYTE_ARRAY: ['BYTE_ARRAY'],
  BYTE_STREAM_SPLIT: ['FLOAT', 'DOUBLE', 'INT32', 'INT64', 'FIXED_LEN_BYTE_ARRAY'],
}
const UNIT = { ms: 'MILLIS', us: 'MICROS', ns: 'NANOS' }
const SINGLE_PAGE = 0 // column.js getPageBoundaries: no pageSize -> one page per chunk
const INT_BITS = { 8: 'INT_8', 16: 'INT_16', 32: 'INT_32', 64: 'INT_64' }
const INTERVAL_BYTES = 12

/** The write handler. */
export function writeFile(request) {
  const { schema: fields, rows, options } = request.case
  const schema = [{ name: 'root', num_children: fields.length }, ...fields.flatMap(schemaElements)]
  checkEncoding(options.encoding, fields)
  if (options.bloom_filter_ndv !== null) {
    throw new Unsupported('hyparquet-writer sizes a bloom filter for the distinct values it sees ' +
      '(bloom.js BloomBuilder.finalize); its bloomFilter option takes only fpp and maxBytes, no NDV')
  }
  if (options.dictionary_size_limit !== null && options.encoding === 'RLE_DICTIONARY') {
    throw new Unsupported('hyparquet-writer ignores dictionarySize when RLE_DICTIONARY is asked for ' +
      '(dictionary.js: "the dictionary is built unconditionally (no sampling, no size or win checks)")')
  }
  const columnData = fields.map((field, i) => ({
    name: field.name,
    data: rows.map(row => jsValue(field, row[i])),
    encoding: options.encoding ?? undefined,
    columnIndex: options.page_index === true,
    offsetIndex: options.page_index !== false,
    bloomFilter: options.bloom_filter_columns.includes(field.name) && bloomFilter(options),
  }))
  parquetWriteFile({
    filename: request.path,
    schema,
    columnData,
    codec: options.codec,
    compressors: COMPRESSORS,
    statistics: options.statistics ?? undefined,
    statisticsTruncateLength: options.statistics_truncate_length ?? undefined,
    rowGroupSize: options.row_group_size ?? Math.max(rows.length, 1),
    pageSize: SINGLE_PAGE,
    dictionarySize: options.dictionary_size_limit ?? undefined,
  })
  return { ok: true }
}

function bloomFilter(options) {
  return options.bloom_filter_fpp === null ? true : { fpp: options.bloom_filter_fpp }
}

/** Refuse an encoding hyparquet-writer would not write for a leaf of the schema. */
function checkEncoding(encoding, fields) {
  const leaves = fields.flatMap(leafPhysicalTypes)
  if (encoding === 'RLE_DICTIONARY' && leaves.includes('BOOLEAN')) {
    throw new Unsupported('hyparquet-writer builds no dictionary for BOOLEAN (dictionary.js useDictionary: ' +
      '"if (type === \'BOOLEAN\') return {}") and writes the pages PLAIN or RLE instead')
  }
  const allowed = ENCODING_PHYSICAL[encoding]
  const refused = allowed && leaves.find(physical => !allowed.includes(physical))
  if (refused) {
    throw new Unsupported(`hyparquet-writer encodes ${encoding} for ${allowed.join(', ')} only ` +
      `(datapage.js writeDataPageV2 throws for ${refused})`)
  }
}

function leafPhysicalTypes(field) {
  const { type } = field
  if (type.kind === 'list') return leafPhysicalTypes(type.element)
  if (type.kind === 'map') return [...leafPhysicalTypes(type.key), ...leafPhysicalTypes(type.value)]
  if (type.kind === 'struct') return type.fields.flatMap(leafPhysicalTypes)
  return [physicalType(type)]
}

// ---- canonical schema -> SchemaElements (depth first, as the footer lists them) ----

function schemaElements(field) {
  const repetition_type = field.nullable ? 'OPTIONAL' : 'REQUIRED'
  const { type, name } = field
  switch (type.kind) {
  case 'list':
    return [{ name, repetition_type, num_children: 1, converted_type: 'LIST', logical_type: { type: 'LIST' } },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      ...schemaElements({ ...type.element, name: 'element' })]
  case 'map':
    return [{ name, repetition_type, num_children: 1, converted_type: 'MAP', logical_type: { type: 'MAP' } },
      { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 },
      ...schemaElements({ ...type.key, name: 'key' }), ...schemaElements({ ...type.value, name: 'value' })]
  case 'struct':
    return [{ name, repetition_type, num_children: type.fields.length }, ...type.fields.flatMap(schemaElements)]
  }
  return [{ name, repetition_type, type: physicalType(type), ...annotation(type) }]
}

function physicalType(type) {
  if (type.physical) return type.physical
  if (type.kind === 'int') return type.bits === 64 ? 'INT64' : 'INT32'
  return { boolean: 'BOOLEAN', float: type.bits === 32 ? 'FLOAT' : 'DOUBLE', date: 'INT32' }[type.kind] ?? 'BYTE_ARRAY'
}

/** The logical/converted type and lengths of a primitive canonical type. */
function annotation(type) {
  const length = type.length === undefined ? {} : { type_length: type.length }
  switch (type.kind) {
  case 'int': return intAnnotation(type)
  case 'string': return { converted_type: 'UTF8', logical_type: { type: 'STRING' } }
  case 'enum': return { converted_type: 'ENUM', logical_type: { type: 'ENUM' } }
  case 'json': return { converted_type: 'JSON', logical_type: { type: 'JSON' } }
  case 'bson': return { converted_type: 'BSON', logical_type: { type: 'BSON' } }
  case 'date': return { converted_type: 'DATE', logical_type: { type: 'DATE' } }
  case 'uuid': return { ...length, logical_type: { type: 'UUID' } }
  case 'fixed': return length
  case 'float': return type.bits === 16 ? { type_length: 2, logical_type: { type: 'FLOAT16' } } : {}
  case 'interval': return { type_length: INTERVAL_BYTES, converted_type: 'INTERVAL' }
  case 'unknown': return { logical_type: { type: 'NULL' } }
  case 'decimal': return {
    ...length, converted_type: 'DECIMAL', scale: type.scale, precision: type.precision,
    logical_type: { type: 'DECIMAL', scale: type.scale, precision: type.precision },
  }
  case 'time': case 'timestamp': return temporalAnnotation(type)
  case 'geometry': return { logical_type: { type: 'GEOMETRY', crs: type.crs } }
  case 'geography': return { logical_type: { type: 'GEOGRAPHY', crs: type.crs, algorithm: type.algorithm } }
  }
  return {}
}

/** An integer's annotation, both forms as for every other type: the converted type and
 * the INTEGER logical type (a plain signed INT32/INT64 needs none). hyparquet-writer 0.17.0
 * writes the logical type's i8 bitWidth as a thrift i32 (thrift.js
 * getCompactTypeForValue), so strict readers reject such a footer: a finding (README.md
 * of this adapter), left for the cells to show. */
function intAnnotation(type) {
  const plain = type.signed && (type.bits === 32 || type.bits === 64)
  return plain ? {} : {
    converted_type: (type.signed ? '' : 'U') + INT_BITS[type.bits],
    logical_type: { type: 'INTEGER', bitWidth: type.bits, isSigned: type.signed }
  }
}

/** TIME/TIMESTAMP; the converted type only where it means the same (UTC, ms or us). */
function temporalAnnotation(type) {
  const logical_type = { type: type.kind.toUpperCase(), isAdjustedToUTC: type.utc, unit: UNIT[type.unit] }
  const legacy = type.utc && type.unit !== 'ns' ? { converted_type: `${logical_type.type}_${UNIT[type.unit]}` } : {}
  return { logical_type, ...legacy }
}

// ---- canonical values -> the JS values hyparquet-writer takes ----

function jsValue(field, value) {
  if (value === null) return null
  const { type } = field
  switch (type.kind) {
  case 'int': return type.bits === 64 ? BigInt(value) : value
  case 'float': return parseDouble(value)
  case 'binary': case 'bson': case 'fixed': return fromHex(value)
  case 'enum': return new TextEncoder().encode(value)
  case 'json': return jsonValue(value)
  case 'uuid': return fromHex(value.replaceAll('-', ''))
  case 'decimal': return parseDecimal(value)
  case 'time': return type.unit === 'ms' ? value : BigInt(value)
  case 'timestamp': return BigInt(value)
  case 'interval': return intervalBytes(value)
  case 'geometry': case 'geography': return geoJson(value)
  case 'list': return value.map(item => jsValue(type.element, item))
  case 'map': return value.map(([key, item]) => [jsValue(type.key, key), jsValue(type.value, item)])
  case 'struct': return Object.fromEntries(type.fields.map(f => [f.name, jsValue(f, value[f.name])]))
  }
  return value // boolean, string, date: as they are
}

/** hyparquet-writer writes JSON.stringify of a JS value (unconvert.js): only text it gives back is writable. */
function jsonValue(text) {
  const parsed = JSON.parse(text)
  if (parsed === null) {
    throw new Unsupported('hyparquet-writer takes the JSON value null as a null (dremel.js), not as the text "null"')
  }
  if (JSON.stringify(parsed) !== text) {
    throw new Unsupported(`hyparquet-writer writes JSON columns as JSON.stringify(value) (unconvert.js); ` +
      `${JSON.stringify(text)} would be written as ${JSON.stringify(JSON.stringify(parsed))}`)
  }
  return parsed
}

/** hyparquet-writer takes GeoJSON and writes its own WKB (unconvert.js geojsonToWkb). */
function geoJson(hex) {
  const wkb = fromHex(hex)
  const geometry = wkbToGeojson({ view: new DataView(wkb.buffer, wkb.byteOffset, wkb.byteLength), offset: 0 })
  const written = Buffer.from(geojsonToWkb(geometry)).toString('hex')
  if (written !== hex) {
    throw new Unsupported(`hyparquet-writer takes GeoJSON and encodes the WKB itself; the WKB ${hex} ` +
      `would be written as ${written}`)
  }
  return geometry
}

function intervalBytes([months, days, millis]) {
  const bytes = new Uint8Array(INTERVAL_BYTES)
  const view = new DataView(bytes.buffer)
  view.setUint32(0, months, true)
  view.setUint32(4, days, true)
  view.setUint32(8, millis, true)
  return bytes
}
