// The parquet-wasm adapter (docs/engine-protocol.md): arrow-rs's Parquet reader and
// writer compiled to WebAssembly, driven from node through Arrow IPC streams.
//
//   node adapters/js/parquet-wasm/adapter.mjs
//
// write: canonical schema + rows -> apache-arrow Table (to_arrow.mjs) -> IPC stream ->
//        wasm Table -> writeParquet(table, WriterProperties from the case's options).
// read:  file bytes -> readParquet -> IPC stream -> apache-arrow Table ->
//        canonical document (from_arrow.mjs).

import fs from 'node:fs'
import { createRequire } from 'node:module'
import * as arrow from 'apache-arrow'
import { packageVersion } from '../lib/installed.mjs'
import { serve, Panic, PROTOCOL_VERSION } from '../lib/protocol.mjs'
import { arrowTable } from './to_arrow.mjs'
import { canonicalDocument } from './from_arrow.mjs'
import { writerProperties } from './properties.mjs'

const PACKAGE = 'parquet-wasm'
const require = createRequire(import.meta.url)
// The node build: CommonJS, instantiating its WebAssembly synchronously on require.
const entry = require.resolve(PACKAGE)
let wasm = require(entry)

/** What to throw for `error`: a Rust panic aborts the wasm instance mid-call (a
 * `WebAssembly.RuntimeError`, e.g. "unreachable") and leaves its memory inconsistent, so
 * later calls get a fresh instance, and the panic is reported as one (a crash cell). */
function afterPanic (error) {
  if (!(error instanceof WebAssembly.RuntimeError)) return error
  delete require.cache[entry]
  wasm = require(entry)
  return new Panic(`${error.constructor.name}: ${error.message}`)
}

const NO_SETTER = 'parquet-wasm 0.8.0 WriterPropertiesBuilder (node/parquet_wasm.d.ts) has no setter for it'
const NOT_ANNOTATED = 'this parquet-wasm build writes no such annotation: measured, an Arrow field with ' +
  "ARROW:extension:name '%s' is written as an unannotated %s (parquet-rs is built without its " +
  'canonical extension type / geospatial / variant features)'
const ENCRYPTION = 'parquet-wasm 0.8.0 has no encryption API (no WriterPropertiesBuilder setter, no ' +
  "ReaderOptions key; node/parquet_wasm.d.ts) and its parquet-rs is built without the 'encryption' " +
  "feature: measured, readParquet of an encrypted file raises 'Parquet file has an encrypted footer " +
  "but the encryption feature is disabled'"

const VARIANT = 'measured: an Arrow struct of metadata and value binaries with ARROW:extension:name ' +
  "'arrow.parquet.variant' is written as a plain group, without the VARIANT annotation"

const CAPABILITIES = {
  writes: ['physical:*', 'type:*', 'repetition:*', 'encoding:*', 'page:*', 'row_groups:*',
    'pages:*', 'dictionary:fallback', 'rows:*', 'nulls:*', 'statistics', 'statistics:none',
    'page_index', 'codec:*'],
  reads: ['*'],
  cannot_write: {
    'type:FILE': 'Arrow has no FILE type: arrow-rs writes an Arrow struct as a group without the FILE ' +
      'annotation (LogicalTypes.md \'FILE\')',
    'type:INT96': 'arrow-rs never writes INT96: measured, Timestamp(ns) is written as INT64 TIMESTAMP(NANOS)',
    'type:ENUM': 'Arrow has no enum type; arrow-rs writes Utf8 as STRING',
    'type:BSON': 'Arrow has no BSON type; arrow-rs never writes the BSON annotation',
    'type:JSON': NOT_ANNOTATED.replace('%s', 'arrow.json').replace('%s', 'BYTE_ARRAY STRING'),
    'type:UUID': NOT_ANNOTATED.replace('%s', 'arrow.uuid').replace('%s', 'FIXED_LEN_BYTE_ARRAY(16)'),
    'type:GEOMETRY': NOT_ANNOTATED.replace('%s', 'geoarrow.wkb').replace('%s', 'BYTE_ARRAY'),
    'type:GEOGRAPHY': NOT_ANNOTATED.replace('%s', 'geoarrow.wkb').replace('%s', 'BYTE_ARRAY'),
    'type:VARIANT': VARIANT,
    'variant:shredded': VARIANT,
    'type:INTERVAL': 'measured: Arrow MonthDayNano (the one Arrow interval holding months, days and ' +
      "milliseconds) fails with 'NYI: Attempting to write an Arrow interval type MonthDayNano to " +
      "parquet that is not yet implemented'; YearMonth and DayTime hold only part of the value",
    'type:DECIMAL(BYTE_ARRAY)': 'arrow-rs writes DECIMAL on INT32, INT64 or FIXED_LEN_BYTE_ARRAY by ' +
      'precision (measured), never on BYTE_ARRAY',
    'encoding:PLAIN_DICTIONARY': 'measured: with dictionary encoding arrow-rs labels the data pages ' +
      'RLE_DICTIONARY (dictionary page PLAIN) in v1 and v2 files; setEncoding(PLAIN_DICTIONARY) ' +
      "'Panics if user tries to set dictionary encoding here' (setEncoding's documentation)",
    'encoding:ALP': 'parquet-wasm 0.8.0 has no ALP: its Encoding enum (node/parquet_wasm.d.ts) ends at ' +
      "BYTE_STREAM_SPLIT, and measured, it reads a file with an ALP page as 'Parquet error: " +
      "Unexpected Encoding 10'",
    'pages:multiple': `rows per data page: ${NO_SETTER} (parquet-rs's data page row count limit is ` +
      'not exposed), and the page size limit does not bound rows (measured with ' +
      'setDataPageSizeLimit(0) and setWriteBatchSize(7) on page_index/ascending-range: a PLAIN ' +
      'string column got 1-row pages, a dictionary-encoded one a single 30-row page, an INT32 ' +
      'column a page of 7 nulls after 1-row pages)',
    'levels:BIT_PACKED': `arrow-rs writes RLE levels only; ${NO_SETTER}`,
    'page_v2:is_compressed=false': 'arrow-rs sets DataPageHeaderV2.is_compressed itself, page by ' +
      'page (measured: in codec/snappy-v2-is-compressed-false one of three columns got false, two ' +
      `true); ${NO_SETTER}`,
    'legacy:*': 'arrow-rs writes the standard LIST and MAP layouts only (LogicalTypes.md), ' + NO_SETTER,
    'statistics:truncate': `statistics truncation: ${NO_SETTER}`,
    bloom: `bloom filters: ${NO_SETTER}`,
    crc: `page checksums: ${NO_SETTER}`,
    'lie:*': 'deliberately untrue metadata (WriteOptions.lies) is written by the reference writer only',
    'encryption:*': ENCRYPTION,
    'codec:LZO': "measured: writeParquet with Compression.LZO fails with 'RuntimeError: unreachable' " +
      '(a Rust panic: parquet-rs has no LZO codec)'
  },
  cannot_read: { 'encryption:*': ENCRYPTION }
}

function start () {
  return {
    protocol: PROTOCOL_VERSION,
    name: PACKAGE,
    version: packageVersion(PACKAGE),
    language: 'javascript',
    formats: { parquet: CAPABILITIES }
  }
}

function write ({ path: file, case: kase }) {
  const properties = writerProperties(wasm, kase)
  const ipc = arrow.tableToIPC(arrowTable(kase.schema, kase.rows), 'stream')
  try {
    fs.writeFileSync(file, wasm.writeParquet(wasm.Table.fromIPCStream(ipc), properties))
  } catch (error) {
    throw afterPanic(error)
  }
  return { ok: true }
}

function read ({ file }) {
  let ipc
  try {
    ipc = wasm.readParquet(new Uint8Array(fs.readFileSync(file))).intoIPCStream()
  } catch (error) {
    throw afterPanic(error)
  }
  return { document: canonicalDocument(arrow.tableFromIPC(ipc)) }
}

serve({ start, read, write })
