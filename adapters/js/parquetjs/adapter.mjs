// The @dsnp/parquetjs adapter (docs/engine-protocol.md): parquetjs's own ParquetWriter
// writes each case, its ParquetReader (cursor) reads each file. This module answers
// `start`; write.mjs and read.mjs translate canonical values to and from the library's.

import { packageVersion } from '../lib/installed.mjs'
import { serve, PROTOCOL_VERSION } from '../lib/protocol.mjs'
import { read } from './read.mjs'
import { write, CODECS } from './write.mjs'

const PACKAGE = '@dsnp/parquetjs'

const NO_LOGICAL_TYPES = 'writer.js encodeFooter writes each column\'s ConvertedType and never ' +
  'SchemaElement.logicalType, and types.js has no type for it'
const UTC_ONLY = 'only the ConvertedTypes TIME_MILLIS/TIME_MICROS/TIMESTAMP_MILLIS/TIMESTAMP_MICROS ' +
  'reach the footer (writer.js encodeFooter never writes SchemaElement.logicalType), and they mean ' +
  'isAdjustedToUTC=true'
const NO_DICTIONARY = 'measured: a PLAIN_DICTIONARY or RLE_DICTIONARY column fails with TypeError ' +
  "'parquet_codec[encoding].encodeValues is not a function' (codec/plain_dictionary.js only decodes)"

const CANNOT_WRITE = {
  'type:FILE': 'parquetjs 1.8.7 has no FILE annotation: its generated parquet_types.js LogicalType ends ' +
    'at UUID (14); FILE is 19 (LogicalTypes.md \'FILE\')',
  'encoding:PLAIN_DICTIONARY': NO_DICTIONARY,
  'encoding:RLE_DICTIONARY': NO_DICTIONARY,
  'dictionary:fallback': NO_DICTIONARY,
  'encoding:DELTA_*': "measured: 'Unsupported parquet encoding: DELTA_BINARY_PACKED, for Column: v' " +
    '(likewise DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY); codec/index.js has PLAIN, RLE and the dictionary decoders only',
  'encoding:BYTE_STREAM_SPLIT': "measured: 'Unsupported parquet encoding: BYTE_STREAM_SPLIT, for Column: v'",
  'codec:LZ4': "measured: 'Unsupported compression method: LZ4, for Column: v'",
  'codec:LZ4_RAW': "measured: 'Unsupported compression method: LZ4_RAW, for Column: v'",
  'codec:ZSTD': "measured: 'Unsupported compression method: ZSTD, for Column: v'",
  'codec:LZO': "measured: 'Unsupported compression method: LZO, for Column: v' (compression.js: " +
    "'LZO compression is disabled. See: https://github.com/LibertyDSNP/parquetjs/issues/18')",
  'levels:BIT_PACKED': "writer.js writes levels with the constant PARQUET_RDLVL_ENCODING = 'RLE'; no option",
  crc: 'writer.js never sets PageHeader.crc and has no option for it',
  'statistics:truncate': 'no option: the statistics hold the whole min/max values (writer.js encodeStatistics)',
  'lie:*': 'test-only metadata lies, written by the reference only',
  'encryption:*': 'parquetjs has no modular encryption: its README and writer options name none',
  'legacy:map_key_value': "schema.js annotates a group only with opts.type 'LIST' or 'MAP' " +
    '(fieldList[name].originalType = opts.type), never MAP_KEY_VALUE',
  'type:INT96': "measured: an INT96 column given a BigInt fails with TypeError 'Cannot convert a BigInt value " +
    "to a number'; codec/plain.js encodeValues_INT96 writes a 64-bit integer sign-extended to 96 bits " +
    "('truncate to 64 actual precision'), never a Julian day and nanoseconds",
  'type:ENUM': "measured: parquetjs's ENUM type is written as ConvertedType UTF8 (types.js: ENUM " +
    "originalType 'UTF8'); pyarrow reads the column as String",
  'type:JSON': 'parquetjs serializes JSON values itself (types.js toPrimitive_JSON: JSON.stringify(value)), ' +
    "so it cannot store a given JSON text; measured: an array value fails with 'too many values for field'",
  'type:BSON': 'parquetjs serializes BSON values itself from a JS object (types.js toPrimitive_BSON: ' +
    'bson.serialize(value)); it takes no BSON bytes',
  'type:DECIMAL(INT32)': "types.js getParquetTypeDataObject('DECIMAL') puts a decimal on FIXED_LEN_BYTE_ARRAY " +
    '(typeLength given), BYTE_ARRAY (precision > 18) or INT64, never on INT32',
  'type:TIME(ms,local)': UTC_ONLY,
  'type:TIME(us,local)': UTC_ONLY,
  'type:TIMESTAMP(ms,local)': UTC_ONLY,
  'type:TIMESTAMP(us,local)': UTC_ONLY,
  'type:TIME(ns,*)': 'measured: an INT64 field with logicalType TIME(NANOS) is written unannotated (plain INT64); ' +
    NO_LOGICAL_TYPES,
  'type:TIMESTAMP(ns,*)': 'no TIMESTAMP_NANOS type in types.js; ' + NO_LOGICAL_TYPES,
  'type:UUID': NO_LOGICAL_TYPES,
  'type:FLOAT16': NO_LOGICAL_TYPES,
  'type:UNKNOWN': NO_LOGICAL_TYPES,
  'type:GEOMETRY': NO_LOGICAL_TYPES,
  'type:GEOGRAPHY': NO_LOGICAL_TYPES,
  'type:VARIANT': NO_LOGICAL_TYPES,
  'variant:shredded': NO_LOGICAL_TYPES
}

const CAPABILITIES = {
  writes: ['physical:*', 'type:*', 'repetition:*', 'encoding:PLAIN', 'encoding:RLE', 'page:*',
    'page_v2:is_compressed=false', 'row_groups:*', 'pages:*', 'rows:*', 'nulls:*', 'statistics',
    'statistics:none', 'page_index', 'bloom', 'legacy:*', ...CODECS.map(codec => `codec:${codec}`)],
  reads: ['*'],
  cannot_write: CANNOT_WRITE,
  // parquetjs documents no reading limitation: whatever it fails to read is a finding.
  cannot_read: {}
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

serve({ start, read, write })
