/*
 * The write op: a catalogue case -> one ORC file, through orc-core's Writer
 * (OrcFile.createWriter) on Hadoop's raw local file system (no .crc side file). Each
 * OrcWriteOptions knob (conformance/cases/orc/options.py) -> its orc-core option:
 *
 *   file_version            WriterOptions.version(V_0_11 / V_0_12)
 *   codec                   compress(CompressionKind)
 *   compression_block_size  bufferSize + enforceBufferSize (else orc-core may shrink it)
 *   stripe_row_limit        orc.stripe.row.count (OrcConf.STRIPE_ROW_COUNT), and batches
 *                           of that many rows
 *   row_index_stride        rowIndexStride (0: buildIndex(false), no row index)
 *   string_encoding         orc.dictionary.key.threshold 0 (DIRECT) or 1 (DICTIONARY)
 *   bloom_filter_columns    bloomFilterColumns, bloomFilterFpp
 *   writer_timezone         the JVM's default zone while writing (orc-core writes it as
 *                           StripeFooter.writerTimezone), useUTCTimestamp(false)
 *   calendar                setProlepticGregorian
 *   bare_root               the one column's type as the file's root type
 *   encrypt, masks          Encryption (with the request's keys)
 */
package columnar.conformance.adapters.orcjava;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcConf;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;

final class FileWriting {
  static final int DEFAULT_BATCH_ROWS = VectorizedRowBatch.DEFAULT_SIZE;
  static final String PROLEPTIC = "PROLEPTIC_GREGORIAN";
  static final String DIRECT = "DIRECT";
  // orc-core's WriterImpl refuses a smaller row index stride (measured, orc-core 2.3.0).
  static final int MIN_ROW_INDEX_STRIDE = 1_000;

  private FileWriting() {}

  static void write(JsonNode testCase, String path, JsonNode keys) throws IOException {
    JsonNode options = testCase.get("options");
    JsonNode schema = testCase.get("schema");
    TypeDescription root = Schemas.root(schema, options.path("bare_root").asBoolean(false));
    String zoneName = text(options, "writer_timezone");
    TimeZone zone = TimeZone.getTimeZone(zoneName == null ? Adapter.UTC : zoneName);
    TimeZone.setDefault(zone);
    OrcFile.WriterOptions writerOptions = writerOptions(options, root);
    Encryption.encrypt(writerOptions, options, keys);
    try (Writer writer = OrcFile.createWriter(new Path(path), writerOptions)) {
      writeRows(writer, root, schema, testCase.get("rows"), batchRows(options), new VectorWriting(zone));
    } finally {
      TimeZone.setDefault(TimeZone.getTimeZone(Adapter.UTC));
    }
  }

  static OrcFile.WriterOptions writerOptions(JsonNode options, TypeDescription root) throws IOException {
    Configuration conf = new Configuration();
    if (!options.path("stripe_row_limit").isNull()) {
      OrcConf.STRIPE_ROW_COUNT.setLong(conf, options.get("stripe_row_limit").asLong());
    }
    String encoding = text(options, "string_encoding");
    if (encoding != null) {
      OrcConf.DICTIONARY_KEY_SIZE_THRESHOLD.setDouble(conf, encoding.equals(DIRECT) ? 0.0 : 1.0);
    }
    OrcFile.WriterOptions writer = OrcFile.writerOptions(conf).setSchema(root).overwrite(true)
        .fileSystem(FileSystem.getLocal(conf).getRaw())
        .version(OrcFile.Version.byName(options.get("file_version").asText()))
        .compress(CompressionKind.valueOf(options.get("codec").asText()))
        .useUTCTimestamp(false);
    if (!options.path("compression_block_size").isNull()) {
      writer.bufferSize(options.get("compression_block_size").asInt()).enforceBufferSize();
    }
    if (!options.path("row_index_stride").isNull()) {
      int stride = options.get("row_index_stride").asInt();
      if (stride > 0 && stride < MIN_ROW_INDEX_STRIDE) {
        throw new Adapter.Unsupported("row_index_stride " + stride + ": measured, orc-core's writer "
            + "refuses it with IllegalArgumentException 'Row stride must be at least "
            + MIN_ROW_INDEX_STRIDE + "'");
      }
      writer = stride == 0 ? writer.buildIndex(false) : writer.rowIndexStride(stride);
    }
    List<String> bloom = new ArrayList<>();
    options.path("bloom_filter_columns").forEach(column -> bloom.add(column.asText()));
    if (!bloom.isEmpty()) {
      writer.bloomFilterColumns(String.join(",", bloom));
    }
    if (!options.path("bloom_filter_fpp").isNull()) {
      writer.bloomFilterFpp(options.get("bloom_filter_fpp").asDouble());
    }
    String calendar = text(options, "calendar");
    if (calendar != null) {
      writer.setProlepticGregorian(calendar.equals(PROLEPTIC));
    }
    return writer;
  }

  /** With a stripe row limit, batches of that many rows (orc-core looks at the limit
   * after each batch). */
  private static int batchRows(JsonNode options) {
    JsonNode limit = options.path("stripe_row_limit");
    return limit.isNull() || limit.isMissingNode() ? DEFAULT_BATCH_ROWS : limit.asInt();
  }

  private static void writeRows(Writer writer, TypeDescription root, JsonNode schema, JsonNode rows,
      int batchRows, VectorWriting vectors) throws IOException {
    VectorizedRowBatch batch = root.createRowBatch(batchRows);
    for (int first = 0; first < rows.size(); first += batchRows) {
      batch.reset();
      for (ColumnVector column : batch.cols) {
        VectorWriting.proleptic(column);
      }
      int count = Math.min(batchRows, rows.size() - first);
      for (int r = 0; r < count; r++) {
        JsonNode row = rows.get(first + r);
        for (int c = 0; c < schema.size(); c++) {
          vectors.set(batch.cols[c], r, schema.get(c).get("type"), row.get(c));
        }
      }
      batch.size = count;
      writer.addRowBatch(batch);
    }
  }

  private static String text(JsonNode options, String name) {
    JsonNode value = options.path(name);
    return value.isNull() || value.isMissingNode() ? null : value.asText();
  }
}
