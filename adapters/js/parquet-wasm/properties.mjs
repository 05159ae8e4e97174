// A case's write options (conformance/cases/model.py, WriteOptions) -> parquet-wasm
// WriterProperties. Every knob used is a WriterPropertiesBuilder setter of
// parquet-wasm 0.8.0 (node/parquet_wasm.d.ts); what has no setter is declared
// cannot_write in adapter.mjs. Facts marked "measured" were measured with
// parquet-wasm 0.8.0 (parquet-rs 59.3.0) by reading the page headers written.

import { Unsupported } from '../lib/protocol.mjs'
import { leaves, writtenPhysical } from './to_arrow.mjs'

// Physical types arrow-rs encodes with each encoding (measured, one column per physical
// type, data page v1 and v2). Any other pairing is a Rust panic inside the wasm
// ("RuntimeError: unreachable"), so it is refused before writing.
const ENCODING_PHYSICAL = {
  PLAIN: ['BOOLEAN', 'INT32', 'INT64', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'],
  RLE: ['BOOLEAN'],
  DELTA_BINARY_PACKED: ['INT32', 'INT64'],
  DELTA_LENGTH_BYTE_ARRAY: ['BYTE_ARRAY'],
  DELTA_BYTE_ARRAY: ['BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'],
  BYTE_STREAM_SPLIT: ['INT32', 'INT64', 'FLOAT', 'DOUBLE', 'FIXED_LEN_BYTE_ARRAY'],
  // Measured: BOOLEAN columns are never dictionary-encoded (PLAIN in v1, RLE in v2
  // pages), FIXED_LEN_BYTE_ARRAY ones only in data page v2 (PLAIN in v1).
  RLE_DICTIONARY: ['INT32', 'INT64', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY']
}
const DICTIONARY_V2_ONLY = ['FIXED_LEN_BYTE_ARRAY']
// Far above any case: no size limit cuts a page or a dictionary the case did not ask for.
const UNLIMITED_BYTES = 2 ** 30

/** The WriterProperties for a case, or Unsupported naming what arrow-rs cannot do. */
export function writerProperties (wasm, kase) {
  const options = kase.options
  const leafTypes = kase.schema.flatMap(field => leaves(field))
  checkPhysicalTypes(leafTypes)
  let builder = new wasm.WriterPropertiesBuilder()
    .setWriterVersion(options.page_version === 2 ? wasm.WriterVersion.V2 : wasm.WriterVersion.V1)
    .setCompression(wasm.Compression[options.codec])
    .setMaxRowGroupSize(options.row_group_size ?? Math.max(kase.rows.length, 1))
    .setDictionaryPageSizeLimit(options.dictionary_size_limit ?? UNLIMITED_BYTES)
  // One page per chunk: pages:multiple is cannot_write (no rows-per-page setter), so a
  // case's page_row_limit, when set, is at least its row count.
  builder = builder.setDataPageSizeLimit(UNLIMITED_BYTES)
  builder = encoding(wasm, builder, options, leafTypes)
  return metadata(wasm, builder, options).build()
}

/** Refuse a case whose leaves ask for a physical type arrow-rs does not give their type. */
function checkPhysicalTypes (leafTypes) {
  for (const [path, type] of leafTypes) {
    if (!type.physical) continue
    const written = writtenPhysical(type)
    const length = type.length ?? written.length
    if (written.physical !== type.physical || written.length !== length) {
      throw new Unsupported(`column ${path}: arrow-rs writes ${describe(type)} as ` +
        `${written.physical}${written.length ? `(${written.length})` : ''}, the case asks for ` +
        `${type.physical}${type.length ? `(${type.length})` : ''} (measured)`)
    }
  }
}

function describe (type) {
  return type.kind === 'decimal' ? `DECIMAL(${type.precision},${type.scale})` : type.kind
}

/** The value encoding of every column: a dictionary, or one encoding for all leaves. */
function encoding (wasm, builder, options, leafTypes) {
  const name = options.encoding
  if (name === null) return builder // the writer's own defaults
  for (const [path, type] of leafTypes) {
    const { physical } = writtenPhysical(type)
    const dictionaryV2 = name === 'RLE_DICTIONARY' && options.page_version === 2 &&
      DICTIONARY_V2_ONLY.includes(physical)
    if (!ENCODING_PHYSICAL[name].includes(physical) && !dictionaryV2) {
      throw new Unsupported(`column ${path}: arrow-rs does not write ${physical} with ${name}` +
        ` in data page v${options.page_version} (measured)`)
    }
  }
  if (name === 'RLE_DICTIONARY') {
    // The fallback past dictionary_size_limit is PLAIN, as the case model says.
    return builder.setDictionaryEnabled(true).setEncoding(wasm.Encoding.PLAIN)
  }
  return builder.setDictionaryEnabled(false).setEncoding(wasm.Encoding[name])
}

/** Statistics and page index: arrow-rs writes the ColumnIndex with page-level statistics
 * (EnabledStatistics.Page, its default) and the OffsetIndex always (measured). */
function metadata (wasm, builder, options) {
  const { statistics, page_index: pageIndex } = options
  if (pageIndex === false) {
    throw new Unsupported('arrow-rs always writes the OffsetIndex; the builder has no setter to leave it out (measured)')
  }
  if (statistics === false) {
    if (pageIndex) throw new Unsupported('arrow-rs writes a ColumnIndex only with page-level statistics')
    return builder.setStatisticsEnabled(wasm.EnabledStatistics.None)
  }
  return builder.setStatisticsEnabled(wasm.EnabledStatistics.Page)
}
