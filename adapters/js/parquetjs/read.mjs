// One file read by parquetjs's ParquetReader -> the canonical document.
//
// The schema comes from the file's SchemaElements as parquetjs decoded them
// (reader.metadata.schema: physical type, LogicalType, ConvertedType, repetition;
// its thrift definitions predate FLOAT16, VARIANT, GEOMETRY and GEOGRAPHY, so those
// read as their physical types). The values are the records the library's cursor
// returns, translated as they are (values.mjs).

import { createRequire } from 'node:module'
import { LossyConversion } from '../lib/protocol.mjs'
import { primitiveValue } from './values.mjs'

const require = createRequire(import.meta.url)
const { ParquetReader } = require('@dsnp/parquetjs')
const thrift = require('@dsnp/parquetjs/dist/gen-nodejs/parquet_types')

const TYPE_NAMES = invert(thrift.Type)
const CONVERTED_NAMES = invert(thrift.ConvertedType)
const REPETITIONS = invert(thrift.FieldRepetitionType)
const UNITS = { MILLIS: 'ms', MICROS: 'us', NANOS: 'ns' }
// ConvertedTypes of primitive columns -> canonical types (LogicalTypes.md, 'Deprecated ConvertedType').
const CONVERTED = {
  UTF8: { kind: 'string' },
  ENUM: { kind: 'enum' },
  JSON: { kind: 'json' },
  BSON: { kind: 'bson' },
  DATE: { kind: 'date' },
  TIME_MILLIS: { kind: 'time', unit: 'ms', utc: true },
  TIME_MICROS: { kind: 'time', unit: 'us', utc: true },
  TIMESTAMP_MILLIS: { kind: 'timestamp', unit: 'ms', utc: true },
  TIMESTAMP_MICROS: { kind: 'timestamp', unit: 'us', utc: true },
  INTERVAL: { kind: 'interval', length: 12 },
  ...Object.fromEntries([8, 16, 32, 64].flatMap(bits => [
    [`INT_${bits}`, { kind: 'int', bits, signed: true }],
    [`UINT_${bits}`, { kind: 'int', bits, signed: false }]]))
}

function invert (enumeration) {
  return Object.fromEntries(Object.entries(enumeration).map(([name, value]) => [value, name]))
}

/** Handle a `read` request: the whole file as the canonical document. */
export async function read ({ file }) {
  // INT96 columns are read as timestamps, the library's option for them (Date values).
  const reader = await ParquetReader.openFile(file, { treatInt96AsTimestamp: true })
  try {
    const fields = schemaTree(reader.metadata.schema).map(node => fieldShape(node))
    const rows = []
    const cursor = reader.getCursor()
    for (let record = await cursor.next(); record; record = await cursor.next()) {
      rows.push(fields.map(f => f.value(record[f.field.name], f.field.name)))
    }
    return { document: { canonical_version: 1, schema: fields.map(f => f.field), rows } }
  } finally {
    await reader.close()
  }
}

/** The flat SchemaElement list (depth first, num_children) as a tree of top-level nodes. */
function schemaTree (elements) {
  let next = 1
  const node = () => {
    const element = elements[next++]
    const children = Array.from({ length: element.num_children ?? 0 }, node)
    return { element, name: element.name, repetition: REPETITIONS[element.repetition_type], children }
  }
  return Array.from({ length: elements[0].num_children ?? 0 }, node)
}

/** A field's canonical {field, value}: value(raw, where) translates the library's value. */
function fieldShape (node) {
  if (node.repetition === 'REPEATED') {
    // 'Nested Types': a repeated field outside a LIST or MAP is a required list of required elements.
    const element = typeShape(node)
    const type = { kind: 'list', element: { name: node.name, nullable: false, type: element.type } }
    return { field: { name: node.name, nullable: false, type }, value: occurrences(element.value) }
  }
  const shape = typeShape(node)
  return shaped(node.name, node.repetition === 'OPTIONAL', shape.type, shape.value)
}

function shaped (name, nullable, type, convert) {
  const value = (raw, where) => {
    if (raw === null || raw === undefined) {
      if (nullable) return null
      throw new LossyConversion(`${where}: parquetjs returned ${raw} for a REQUIRED field`)
    }
    return convert(raw, where)
  }
  return { field: { name, nullable, type }, value }
}

/** parquetjs gives a repeated field as an array of its occurrences, or null for none. */
function occurrences (convert) {
  return (raw, where) => (raw ?? []).map((o, i) => convert(o, `${where}[${i}]`))
}

function typeShape (node) {
  if (node.children.length === 0) return primitiveShape(node)
  const annotation = groupAnnotation(node.element)
  return (annotation === 'LIST' && listShape(node)) || (annotation === 'MAP' && mapShape(node)) || structShape(node)
}

function groupAnnotation ({ logicalType, converted_type: converted }) {
  if (logicalType?.LIST) return 'LIST'
  if (logicalType?.MAP) return 'MAP'
  const name = CONVERTED_NAMES[converted]
  return name === 'MAP_KEY_VALUE' ? 'MAP' : name
}

function structShape (node) {
  const children = node.children.map(fieldShape)
  return {
    type: { kind: 'struct', fields: children.map(c => c.field) },
    value: (raw, where) => Object.fromEntries(children.map(c =>
      [c.field.name, c.value(raw[c.field.name], `${where}.${c.field.name}`)]))
  }
}

/** LogicalTypes.md, 'Lists' and its backward-compatibility rules; null if no rule fits. */
function listShape (node) {
  const [repeated] = node.children
  if (node.children.length !== 1 || repeated.repetition !== 'REPEATED') return null
  const threeLevel = repeated.children.length === 1 && repeated.children[0].repetition !== 'REPEATED' &&
    repeated.name !== 'array' && repeated.name !== `${node.name}_tuple`
  const elementNode = threeLevel ? repeated.children[0] : repeated
  const twoLevel = threeLevel ? null : typeShape(repeated) // rules 1 to 4: the repeated field is the element
  const element = threeLevel ? fieldShape(elementNode) : shaped(repeated.name, false, twoLevel.type, twoLevel.value)
  const inside = threeLevel ? (o, where) => element.value(o[elementNode.name], where) : element.value
  return {
    type: { kind: 'list', element: element.field },
    value: (raw, where) => occurrences(inside)(raw[repeated.name], where)
  }
}

/** LogicalTypes.md, 'Maps': a repeated group of a key and a value; null if it is not one. */
function mapShape (node) {
  const [keyValue] = node.children
  if (node.children.length !== 1 || keyValue.repetition !== 'REPEATED' || keyValue.children.length !== 2) return null
  const [key, value] = keyValue.children.map(fieldShape)
  return {
    type: { kind: 'map', key: key.field, value: value.field },
    value: (raw, where) => occurrences((o, at) =>
      [key.value(o[key.field.name], `${at}.key`), value.value(o[value.field.name], `${at}.value`)])(raw[keyValue.name], where)
  }
}

function primitiveShape ({ element }) {
  const type = primitiveType(element)
  return { type, value: (raw, where) => primitiveValue(type, raw, where) }
}

/** The canonical type of a primitive column: LogicalType first, then ConvertedType, then physical. */
function primitiveType (element) {
  const physical = TYPE_NAMES[element.type]
  const annotated = logicalType(element) ?? CONVERTED[CONVERTED_NAMES[element.converted_type]]
  if (annotated) return { ...annotated, physical }
  if (CONVERTED_NAMES[element.converted_type] === 'DECIMAL') return decimalType(element, element, physical)
  const plain = {
    BOOLEAN: { kind: 'boolean' },
    INT32: { kind: 'int', bits: 32, signed: true },
    INT64: { kind: 'int', bits: 64, signed: true },
    INT96: { kind: 'int96' },
    FLOAT: { kind: 'float', bits: 32 },
    DOUBLE: { kind: 'float', bits: 64 },
    BYTE_ARRAY: { kind: 'binary' },
    FIXED_LEN_BYTE_ARRAY: { kind: 'fixed', length: element.type_length }
  }[physical]
  return { ...plain, physical }
}

function logicalType (element) {
  const logical = element.logicalType ?? {}
  const simple = ['STRING', 'ENUM', 'JSON', 'BSON', 'DATE', 'UNKNOWN'].find(name => logical[name])
  if (simple) return { kind: simple.toLowerCase() }
  if (logical.UUID) return { kind: 'uuid', length: 16 }
  if (logical.INTEGER) return { kind: 'int', bits: logical.INTEGER.bitWidth, signed: logical.INTEGER.isSigned }
  for (const kind of ['TIME', 'TIMESTAMP']) {
    const t = logical[kind]
    if (t) return { kind: kind.toLowerCase(), unit: UNITS[Object.keys(t.unit).find(u => t.unit[u])], utc: t.isAdjustedToUTC }
  }
  if (logical.DECIMAL) return decimalType(logical.DECIMAL, element, TYPE_NAMES[element.type])
  return null
}

function decimalType ({ precision, scale }, element, physical) {
  const length = physical === 'FIXED_LEN_BYTE_ARRAY' ? { length: element.type_length } : {}
  return { kind: 'decimal', precision, scale: scale ?? 0, physical, ...length }
}
