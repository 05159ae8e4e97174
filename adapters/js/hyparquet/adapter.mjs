// The hyparquet adapter (docs/engine-protocol.md): reads with hyparquet, writes with
// hyparquet-writer, both pure-JavaScript Parquet libraries by Hyperparam.
//
//   node adapters/js/hyparquet/adapter.mjs
//
// read.mjs turns a file into the canonical document, write.mjs a case into a file; this
// module answers `start` with who it is and what it can do. See README.md.

import { packageVersion } from '../lib/installed.mjs'
import { serve, PROTOCOL_VERSION } from '../lib/protocol.mjs'
import { readFile } from './read.mjs'
import { writeFile } from './write.mjs'

const CODECS_WRITTEN = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI']
const NO_COMPRESSOR = 'hyparquet-writer compresses SNAPPY only and takes other codecs as functions ' +
  '(README: "compressors?: Compressors // custom compressors (default includes snappy, required for ' +
  'other codecs)"); hyparquet-compressors only decompresses (its README: "This package provides ' +
  'decompressors"), and node 20 has no compressor for this codec; measured: "parquet no compressor ' +
  'for codec <CODEC>"'

const CANNOT_WRITE = {
  'type:FILE': 'hyparquet-writer 0.17.0 writes no FILE annotation: src/metadata.js knows LogicalType ' +
    'members up to field_18 (GEOGRAPHY); FILE is 19 (LogicalTypes.md \'FILE\')',
  'page:v1': 'hyparquet-writer writes data page v2 only: column.js writes every page with ' +
    'writeDataPageV2 and no option (README, \'Advanced Usage\') selects v1; measured: every data ' +
    'page header of its files is DATA_PAGE_V2',
  'levels:BIT_PACKED': 'BIT_PACKED levels exist only in data page v1, which hyparquet-writer does not write',
  'page_v2:is_compressed=false': 'datapage.js sets is_compressed to !!codec, and the codec is always ' +
    'named (UNCOMPRESSED included): measured is_compressed absent (true) on every page',
  'pages:multiple': 'hyparquet-writer cuts pages by estimated bytes, not rows (README: "pageSize?: ' +
    'number // target page size in bytes"); it has no rows-per-page option',
  'page_index': 'hyparquet-writer writes a ColumnIndex/OffsetIndex only for a column chunk of more ' +
    'than one page (column.js: "column.columnIndex && pageBoundaries.length > 1") and cannot cut ' +
    'pages by rows (see pages:multiple)',
  'crc': 'hyparquet-writer never sets PageHeader.crc (datapage.js writePageHeader serializes ' +
    'header.crc, which no page writer fills; measured: no crc on any page) and has no option for it',
  'encoding:PLAIN_DICTIONARY': 'hyparquet-writer builds a dictionary only for RLE_DICTIONARY ' +
    '(dictionary.js useDictionary: "if (encoding && encoding !== \'RLE_DICTIONARY\') return {}"), ' +
    'so PLAIN_DICTIONARY pages would hold no dictionary indexes',
  'physical:INT96': 'measured: hyparquet-writer fails with "parquet unsupported type: INT96" ' +
    '(plain.js writePlain has no INT96)',
  'type:INT96': 'measured: "parquet unsupported type: INT96" (plain.js writePlain)',
  'type:VARIANT': 'hyparquet-writer takes VARIANT data as JS values and encodes the metadata and ' +
    'value binaries itself (README, \'Variant\': "Pass any JS values as data"); a JS value keeps no ' +
    'Variant type (int8/int32, decimal scale) and no option takes given binaries',
  'variant:shredded': 'see type:VARIANT; its shredding option also takes only BOOLEAN, INT32, INT64, ' +
    'FLOAT, DOUBLE, STRING, TIMESTAMP fields (README, \'Variant\')',
  'legacy:*': 'hyparquet-writer writes the standard LIST and MAP layouts; measured: a two-level list ' +
    '(repeated leaf) fails with "column l repeated types not supported" (datapage.js)',
  'encryption:*': 'hyparquet-writer has no encryption option (README, \'Advanced Usage\': ' +
    'ParquetWriteOptions)',
  'lie:*': 'deliberately untrue metadata (WriteOptions.lies) is written by the reference writer only',
  ...Object.fromEntries(['LZ4', 'LZ4_RAW', 'ZSTD', 'LZO'].map(codec =>
    [`codec:${codec}`, NO_COMPRESSOR.replace('<CODEC>', codec)])),
}

const CANNOT_READ = {
  'codec:LZO': 'hyparquet-compressors README, \'Compression formats\': "- [ ] LZO" (the only codec ' +
    'it does not decompress); measured: "parquet unsupported compression codec: LZO"',
}

const WRITES = [
  'physical:*', 'type:*', 'repetition:*', 'rows:*', 'nulls:*', 'row_groups:*', 'page:v2',
  'encoding:PLAIN', 'encoding:RLE', 'encoding:RLE_DICTIONARY', 'encoding:DELTA_BINARY_PACKED',
  'encoding:DELTA_LENGTH_BYTE_ARRAY', 'encoding:DELTA_BYTE_ARRAY', 'encoding:BYTE_STREAM_SPLIT',
  'statistics', 'statistics:none', 'statistics:truncate', 'bloom', 'dictionary:fallback',
  ...CODECS_WRITTEN.map(codec => `codec:${codec}`),
]

function start() {
  return {
    protocol: PROTOCOL_VERSION,
    name: 'hyparquet',
    version: `${packageVersion('hyparquet')} (hyparquet-writer ${packageVersion('hyparquet-writer')})`,
    language: 'javascript',
    formats: { parquet: { writes: WRITES, reads: ['*'], cannot_write: CANNOT_WRITE, cannot_read: CANNOT_READ } },
  }
}

serve({ start, read: readFile, write: writeFile })
