/*
 * Column encryption (ORCv1.md, 'Column Encryption', its sections 'Encryption Keys' and
 * 'Data Masks'): the suite's TEST-ONLY master keys, handed over in a request's `keys`
 * (docs/engine-protocol.md, 'write' and 'read': `orc_master_keys`, each a name, version,
 * algorithm and key bytes), held in orc-core's own in-memory keystore
 * (org.apache.orc.InMemoryKeystore).
 *
 *   write  options.encrypt (column -> key name)  WriterOptions.encrypt("key:col,col;key:col")
 *          options.masks (column -> mask)        WriterOptions.masks("mask:col;mask:col"),
 *                                                nullify for an encrypted column naming none
 *          keys                                  WriterOptions.setKeyProvider(keystore)
 *   read   keys                                  ReaderOptions.setKeyProvider(keystore);
 *                                                without keys orc-core's default provider
 *                                                (the masked view of every variant)
 */
package columnar.conformance.adapters.orcjava;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.orc.EncryptionAlgorithm;
import org.apache.orc.InMemoryKeystore;
import org.apache.orc.OrcFile;

final class Encryption {
  static final String MASTER_KEYS = "orc_master_keys";
  static final String NULLIFY = "nullify"; // 'Data Masks': the mask of a column that names none
  // The keystore draws each variant's local key from this seed, so a case's file is the
  // same on every run (golden files); the keys are the suite's test keys, never real ones.
  static final long LOCAL_KEY_SEED = 20_260_101L;

  private Encryption() {}

  /** An encrypted case's columns, keys and masks on `writer`; nothing for a plaintext case. */
  static void encrypt(OrcFile.WriterOptions writer, JsonNode options, JsonNode keys) throws IOException {
    JsonNode encrypt = options.path("encrypt");
    if (encrypt.isEmpty()) {
      return;
    }
    if (!keys.has(MASTER_KEYS)) {
      throw new IllegalArgumentException("an encrypted case came without `keys`." + MASTER_KEYS);
    }
    Map<String, String> keyNames = new LinkedHashMap<>();
    Map<String, String> masks = new LinkedHashMap<>();
    encrypt.fieldNames().forEachRemaining(column -> {
      keyNames.put(column, encrypt.get(column).asText());
      masks.put(column, options.path("masks").path(column).asText(NULLIFY));
    });
    writer.setKeyProvider(keystore(keys)).encrypt(byValue(keyNames)).masks(byValue(masks));
  }

  /** The suite's keys on `reader` when the request has them; else orc-core's default. */
  static void decrypt(OrcFile.ReaderOptions reader, JsonNode keys) throws IOException {
    if (keys.has(MASTER_KEYS)) {
      reader.setKeyProvider(keystore(keys));
    }
  }

  static InMemoryKeystore keystore(JsonNode keys) throws IOException {
    InMemoryKeystore keystore = new InMemoryKeystore(new Random(LOCAL_KEY_SEED));
    for (JsonNode key : keys.get(MASTER_KEYS)) {
      keystore.addKey(key.get("name").asText(), key.get("version").asInt(),
          EncryptionAlgorithm.valueOf(key.get("algorithm").asText()), HexFormat.of().parseHex(key.get("key").asText()));
    }
    return keystore;
  }

  /** column -> value pairs as orc-core's option string: "value:col,col;value:col". */
  private static String byValue(Map<String, String> columns) {
    Map<String, List<String>> grouped = new LinkedHashMap<>();
    columns.forEach((column, value) -> grouped.computeIfAbsent(value, v -> new ArrayList<>()).add(column));
    List<String> parts = new ArrayList<>();
    grouped.forEach((value, names) -> parts.add(value + ":" + String.join(",", names)));
    return String.join(";", parts);
  }
}
