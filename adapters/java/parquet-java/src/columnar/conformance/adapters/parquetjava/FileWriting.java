/*
 * The write op: a case (schema, rows, WriteOptions of conformance/cases/model.py) ->
 * one file, through ExampleParquetWriter over a LocalOutputFile (no Hadoop FileSystem, so
 * no .crc side file). How each option maps is in README.md, 'Write options'.
 */
package columnar.conformance.adapters.parquetjava;

import columnar.conformance.adapters.parquetjava.Adapter.Unsupported;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

final class FileWriting {
  // No limit the cases can reach: "None" means one row group / one page per column chunk
  // and a dictionary that never falls back.
  private static final int UNLIMITED_ROWS = Integer.MAX_VALUE;
  private static final int UNLIMITED_DICTIONARY_BYTES = 1 << 30;

  private FileWriting() {}

  static void write(JsonNode kase, String path, JsonNode keys) throws Exception {
    JsonNode options = kase.get("options");
    checkExpressible(options);
    WriteSchema schema = new WriteSchema(kase.get("schema"));
    ExampleParquetWriter.Builder builder = ExampleParquetWriter.builder(new LocalOutputFile(Path.of(path)))
        .withConf(new Configuration())
        .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
        .withType(schema.message)
        .withCompressionCodec(CompressionCodecName.valueOf(options.get("codec").asText()))
        .withWriterVersion(options.get("page_version").asInt() == 2
            ? WriterVersion.PARQUET_2_0 : WriterVersion.PARQUET_1_0)
        .withRowGroupRowCountLimit(intOr(options.get("row_group_size"), UNLIMITED_ROWS))
        .withPageRowCountLimit(intOr(options.get("page_row_limit"), UNLIMITED_ROWS))
        .withDictionaryPageSize(intOr(options.get("dictionary_size_limit"), UNLIMITED_DICTIONARY_BYTES));
    if (!options.get("page_row_limit").isNull()) {
      // parquet-java compares a page's rows with the limit only when it checks page sizes,
      // by default after 100 rows at the earliest: check after every row.
      builder.withMinRowCountForPageSizeCheck(1).withMaxRowCountForPageSizeCheck(1);
    }
    if (!options.get("encoding").isNull()) { // null: parquet-java's own choice
      Encodings.install(builder, options.get("encoding").asText(),
          !options.get("dictionary_size_limit").isNull(), schema.message);
    }
    metadata(builder, options, schema.message);
    if (!options.get("encryption").isNull()) {
      builder.withEncryption(Encryption.properties(options.get("encryption"), keys, path));
    }
    SimpleGroupFactory groups = new SimpleGroupFactory(schema.message);
    try (ParquetWriter<Group> writer = builder.build()) {
      for (JsonNode row : kase.get("rows")) {
        Group record = groups.newGroup();
        schema.fill(record, row);
        writer.write(record);
      }
    }
  }

  private static int intOr(JsonNode value, int absent) {
    return value == null || value.isNull() ? absent : value.asInt();
  }

  /** Statistics, page index, bloom filters and page checksums; null leaves parquet-java's
   * default (statistics, page index and page CRCs on; no bloom filter). */
  private static void metadata(ExampleParquetWriter.Builder builder, JsonNode options, MessageType schema)
      throws Unsupported {
    if (!options.get("statistics").isNull()) {
      builder.withStatisticsEnabled(options.get("statistics").asBoolean());
    }
    if (!options.get("statistics_truncate_length").isNull()) {
      int length = options.get("statistics_truncate_length").asInt();
      builder.withStatisticsTruncateLength(length).withColumnIndexTruncateLength(length);
    }
    if (options.get("page_index").isBoolean() && !options.get("page_index").asBoolean()) {
      throw new Unsupported(Capabilities.NO_PAGE_INDEX_OFF);
    }
    for (JsonNode column : options.get("bloom_filter_columns")) {
      String name = column.asText();
      if (schema.getType(name).asPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT96) {
        throw new Unsupported(Capabilities.NO_INT96_BLOOM);
      }
      builder.withBloomFilterEnabled(name, true);
      if (!options.get("bloom_filter_ndv").isNull()) {
        builder.withBloomFilterNDV(name, options.get("bloom_filter_ndv").asLong());
      }
      if (!options.get("bloom_filter_fpp").isNull()) {
        builder.withBloomFilterFPP(name, options.get("bloom_filter_fpp").asDouble());
      }
    }
    if (!options.get("page_checksum").isNull()) {
      builder.withPageWriteChecksumEnabled(options.get("page_checksum").asBoolean());
    }
  }

  /** What the capabilities cannot show for a case, refused before writing. */
  private static void checkExpressible(JsonNode options) throws Unsupported {
    if (options.get("lies").size() > 0) {
      throw new Unsupported(Capabilities.LIES);
    }
    if (!options.get("level_encoding").asText().equals("RLE")) {
      throw new Unsupported(Capabilities.BIT_PACKED_LEVELS);
    }
    if (!options.get("nested_style").asText().equals("standard")) {
      throw new Unsupported(Capabilities.LEGACY_LAYOUTS);
    }
    JsonNode dictionaryLimit = options.get("dictionary_size_limit");
    if (!dictionaryLimit.isNull() && dictionaryLimit.asInt() < Capabilities.MIN_DICTIONARY_BYTES) {
      throw new Unsupported(Capabilities.SMALL_DICTIONARY);
    }
    if (options.has("variant_shredding") && options.get("variant_shredding").size() > 0) {
      throw new Unsupported(Capabilities.NO_SHREDDING);
    }
  }
}
