/*
 * The start answer: who this engine is and what it writes and reads (feature-tag
 * patterns, docs/engine-protocol.md 'start'), each refusal with its reason: parquet-java's
 * API or documentation, or an error measured with parquet-java 1.17.0 (README.md).
 */
package columnar.conformance.adapters.parquetjava;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

final class Capabilities {
  static final String NAME = "parquet-java";

  static final List<String> WRITES = List.of("physical:*", "type:*", "repetition:*", "encoding:*",
      "codec:*", "page:*", "page_v2:*", "pages:*", "row_groups:*", "dictionary:fallback", "rows:*",
      "nulls:*", "statistics", "statistics:none", "statistics:truncate", "page_index", "bloom", "crc",
      "encryption:*");

  static final String LIES = "deliberately untrue metadata (WriteOptions.lies) is written by the "
      + "reference writer only";
  static final String BIT_PACKED_LEVELS = "parquet-java writes RLE levels only: "
      + "ParquetProperties.newDefinitionLevelWriter / newRepetitionLevelWriter return "
      + "RunLengthBitPackingHybridValuesWriter whatever the writer version (parquet-column 1.17.0)";
  static final String LEGACY_LAYOUTS = "this adapter writes the standard LIST / MAP layouts only "
      + "(the Group API would take a legacy MessageType; not implemented here)";
  static final String NO_SHREDDING = "parquet-java 1.17's Group API writes a VARIANT group as given; "
      + "shredding values into typed_value is in parquet-variant, which pyspark's jars do not hold";
  static final String NO_PAGE_INDEX_OFF = "parquet-java 1.17 always writes the ColumnIndex and "
      + "OffsetIndex: ParquetWriter.Builder and ParquetProperties have no option to turn them off";
  static final String V2_ALWAYS_COMPRESSED = "measured: parquet-java 1.17 writes "
      + "DataPageHeaderV2.is_compressed = true on every v2 page (SNAPPY and UNCOMPRESSED alike); "
      + "ParquetWriter.Builder has no option for it";

  static final String SMALL_DICTIONARY = "a dictionary page size limit under 64 bytes: measured, "
      + "parquet-java 1.17 fails with IllegalArgumentException 'maxCapacityHint can't be less than "
      + "initialSlabSize 64 1' (for a limit of 1)";
  static final int MIN_DICTIONARY_BYTES = 64;
  static final String NO_INT96_BLOOM = "a bloom filter on an INT96 column: measured, parquet-java 1.17 "
      + "writes none (ColumnMetaData.bloom_filter_offset unset) although withBloomFilterEnabled(column, "
      + "true) was given";

  static final String NO_COLUMN_ORDERS = "parquet-java 1.17.0 knows no order but TYPE_ORDER: "
      + "measured in the jars, org.apache.parquet.schema.ColumnOrder.ColumnOrderName has only "
      + "UNDEFINED and TYPE_DEFINED_ORDER, and parquet-format-structures 1.17.0 has no "
      + "IEEE754TotalOrder or Int96TimestampOrder class (nor Statistics.nan_count)";

  static final Map<String, String> CANNOT_WRITE = new LinkedHashMap<>();

  static {
    CANNOT_WRITE.put("lie:*", LIES);
    CANNOT_WRITE.put("column_order:*", NO_COLUMN_ORDERS);
    CANNOT_WRITE.put("type:FILE", "parquet-java 1.17.0 has no FILE annotation: measured, reading one "
        + "fails in LogicalType.getSetField() (its parquet-format has no member 19)");
    CANNOT_WRITE.put("levels:BIT_PACKED", BIT_PACKED_LEVELS);
    CANNOT_WRITE.put("legacy:*", LEGACY_LAYOUTS);
    CANNOT_WRITE.put("variant:shredded", NO_SHREDDING);
    CANNOT_WRITE.put("page_v2:is_compressed=false", V2_ALWAYS_COMPRESSED);
    CANNOT_WRITE.put("encoding:ALP", "parquet-java 1.17.0 has no ALP (Encodings.md, in Preview): "
        + "measured, org.apache.parquet.column.Encoding and org.apache.parquet.format.Encoding end at "
        + "BYTE_STREAM_SPLIT and parquet-column holds no ALP values writer");
    CANNOT_WRITE.put("codec:LZO", "measured: BadConfigurationException 'Class "
        + "com.hadoop.compression.lzo.LzoCodec was not found' (parquet-java takes LZO from the "
        + "GPL hadoop-lzo package, which pyspark's jars do not hold)");
    CANNOT_WRITE.put("codec:BROTLI", "measured: BadConfigurationException 'Class "
        + "org.apache.hadoop.io.compress.BrotliCodec was not found' (parquet-java takes Brotli from "
        + "a codec package that pyspark's jars do not hold)");
  }

  private Capabilities() {}

  /** parquet-java's version as its jar states it, read at run time (a static final
   * String would be inlined by javac). */
  static String version() throws ReflectiveOperationException {
    return (String) org.apache.parquet.Version.class.getField("VERSION_NUMBER").get(null);
  }

  static ObjectNode startAnswer() throws ReflectiveOperationException {
    ObjectNode parquet = Adapter.JSON.createObjectNode();
    ArrayNode writes = parquet.putArray("writes");
    WRITES.forEach(writes::add);
    parquet.putArray("reads").add("*");
    ObjectNode cannotWrite = parquet.putObject("cannot_write");
    CANNOT_WRITE.forEach(cannotWrite::put);
    parquet.putObject("cannot_read");
    ObjectNode answer = Adapter.JSON.createObjectNode().put("protocol", Adapter.PROTOCOL_VERSION)
        .put("name", NAME).put("version", version()).put("language", "java");
    answer.putObject("formats").set("parquet", parquet);
    return answer;
  }
}
