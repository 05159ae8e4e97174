/*
 * The start answer: who this engine is and what it writes and reads (feature-tag
 * patterns, docs/engine-protocol.md 'start'), each refusal with its reason: orc-core's
 * API, or an error measured with orc-core 2.3.0 (README.md).
 */
package columnar.conformance.adapters.orcjava;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.orc.OrcFile;

final class Capabilities {
  static final String NAME = "orc-java";
  static final String POM_PROPERTIES = "/META-INF/maven/org.apache.orc/orc-core/pom.properties";

  static final List<String> WRITES = List.of("*");

  static final Map<String, String> CANNOT_WRITE = new LinkedHashMap<>();

  static {
    CANNOT_WRITE.put("lie:*", "deliberately untrue metadata (OrcWriteOptions.lies) is written by the "
        + "reference alone, to show which readers trust which structure");
    CANNOT_WRITE.put("stripes:empty", "orc-core writes no stripe of no rows: measured, "
        + "orc/shapes/empty-stripes comes out as stripes of 10, 10 and 10 rows and "
        + "empty-stripe-only with no stripe; WriterOptions has no knob for it");
    CANNOT_WRITE.put("mask:redact", "measured: IOException 'Problem adding row', caused by "
        + "NullPointerException 'this.sharedBuffer is null' in BytesColumnVector.ensureValPreallocated "
        + "(orc-core 2.3.0's EncryptionTreeWriter hands RedactMaskFactory a scratch vector it never "
        + "initialises, hive-storage-api 2.8.1)");
    CANNOT_WRITE.put("rle_v2:*:forced", "orc-core picks the RLE v2 sub-encoding of each run itself; "
        + "WriterOptions has no knob for it");
  }

  static final String NO_BROTLI = "measured: NoClassDefFoundError 'com/aayushatharva/brotli4j/"
      + "Brotli4jLoader' (orc-core 2.3.0's BrotliCodec needs brotli4j, which pyspark's jars do not "
      + "hold); reading fails the same way, as IOException 'Problem reading file footer'";

  static final Map<String, String> CANNOT_READ = Map.of("codec:BROTLI", NO_BROTLI);

  static {
    CANNOT_WRITE.put("codec:BROTLI", NO_BROTLI);
  }

  private Capabilities() {}

  /** orc-core's version as its jar states it (Maven's pom.properties; the jar's
   * manifest names none), read at run time. */
  static String version() throws IOException {
    Properties pom = new Properties();
    try (InputStream in = OrcFile.class.getResourceAsStream(POM_PROPERTIES)) {
      pom.load(in);
    }
    return pom.getProperty("version");
  }

  static ObjectNode startAnswer() throws IOException {
    ObjectNode orc = Adapter.JSON.createObjectNode();
    ArrayNode writes = orc.putArray("writes");
    WRITES.forEach(writes::add);
    orc.putArray("reads").add("*");
    ObjectNode cannotWrite = orc.putObject("cannot_write");
    CANNOT_WRITE.forEach(cannotWrite::put);
    ObjectNode cannotRead = orc.putObject("cannot_read");
    CANNOT_READ.forEach(cannotRead::put);
    ObjectNode answer = Adapter.JSON.createObjectNode().put("protocol", Adapter.PROTOCOL_VERSION)
        .put("name", NAME).put("version", version()).put("language", "java");
    answer.putObject("formats").set("orc", orc);
    return answer;
  }
}
