/*
 * The read op: one ORC file -> the canonical document, through orc-core's Reader
 * (OrcFile.createReader, its own TypeDescription, a vectorized RecordReader), with
 * useUTCTimestamp (a TIMESTAMP reads as its wall clock, docs/canonical-values.md 'ORC')
 * and convertToProlepticGregorian (dates and timestamps before 1582-10-15 as proleptic
 * counts, whatever the file's Footer.calendar); an encrypted file with the request's keys
 * (Encryption).
 */
package columnar.conformance.adapters.orcjava;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;

final class FileReading {
  static final int CANONICAL_VERSION = 1;

  private FileReading() {}

  static ObjectNode read(String file, JsonNode keys) throws IOException {
    Configuration conf = new Configuration();
    OrcFile.ReaderOptions options = OrcFile.readerOptions(conf).filesystem(FileSystem.getLocal(conf).getRaw())
        .useUTCTimestamp(true).convertToProlepticGregorian(true);
    Encryption.decrypt(options, keys);
    ArrayNode rows = Adapter.JSON.createArrayNode();
    TypeDescription root;
    try (Reader reader = OrcFile.createReader(new Path(file), options)) {
      root = reader.getSchema();
      boolean struct = root.getCategory() == TypeDescription.Category.STRUCT;
      VectorizedRowBatch batch = root.createRowBatch();
      try (RecordReader records = reader.rows()) {
        while (records.nextBatch(batch)) {
          for (int r = 0; r < batch.size; r++) {
            ArrayNode row = rows.addArray();
            for (int c = 0; c < batch.cols.length; c++) {
              row.add(VectorReading.value(batch.cols[c], r, struct ? root.getChildren().get(c) : root));
            }
          }
        }
      }
    }
    ObjectNode document = Adapter.JSON.createObjectNode().put("canonical_version", CANONICAL_VERSION);
    document.set("schema", Schemas.schema(root));
    document.set("rows", rows);
    return document;
  }
}
