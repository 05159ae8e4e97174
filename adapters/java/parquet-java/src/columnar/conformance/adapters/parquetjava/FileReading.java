/*
 * The read op: one file -> the canonical document, through ParquetReader with
 * GroupReadSupport over a LocalInputFile (page checksums not verified: parquet-java's
 * default). An encrypted file is opened with the request's explicit keys.
 */
package columnar.conformance.adapters.parquetjava;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.crypto.FileDecryptionProperties;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.MessageType;

final class FileReading {
  static final int CANONICAL_VERSION = 1;

  private FileReading() {}

  static ObjectNode read(String file, JsonNode keys) throws IOException {
    InputFile input = new LocalInputFile(Path.of(file));
    FileDecryptionProperties decryption = keys == null || keys.isNull() ? null : Encryption.decryption(keys);
    ReadSchema schema = new ReadSchema(fileSchema(input, decryption));
    ArrayNode rows = Adapter.JSON.createArrayNode();
    try (ParquetReader<Group> reader = groupReader(input).withDecryption(decryption).build()) {
      for (Group record = reader.read(); record != null; record = reader.read()) {
        rows.add(schema.row(record));
      }
    }
    ObjectNode document = Adapter.JSON.createObjectNode().put("canonical_version", CANONICAL_VERSION);
    document.set("schema", schema.schema);
    document.set("rows", rows);
    return document;
  }

  /** The file's schema from its footer (read ahead: a file of no rows gives no record). */
  private static MessageType fileSchema(InputFile input, FileDecryptionProperties decryption) throws IOException {
    ParquetReadOptions options = ParquetReadOptions.builder().withDecryption(decryption).build();
    try (ParquetFileReader reader = ParquetFileReader.open(input, options)) {
      return reader.getFileMetaData().getSchema();
    }
  }

  private static ParquetReader.Builder<Group> groupReader(InputFile input) {
    return new ParquetReader.Builder<Group>(input) {
      @Override
      protected ReadSupport<Group> getReadSupport() {
        return new GroupReadSupport();
      }
    };
  }
}
