/*
 * Parquet modular encryption with parquet-java's crypto API (Encryption.md).
 *
 * Writing (a case's options.encryption, conformance/cases/encryption_options.py):
 * - key_management "explicit": the suite's explicit test keys (conformance/kms/case_keys.py:
 *   the key is SHA-256("conformance-test:<role>:<bits>") cut to size, and key_metadata is
 *   that name), given to FileEncryptionProperties / ColumnEncryptionProperties directly;
 * - "kms" / "kms_double": parquet-java's own key tools, PropertiesDrivenCryptoFactory, with
 *   `TestKms` (the suite's test master keys) as KMS client; single or double wrapping.
 * Then the algorithm, plaintext footer and AAD prefix (stored, or to be supplied).
 *
 * Reading: the request's explicit keys (hex) and AAD prefix -> FileDecryptionProperties.
 */
package columnar.conformance.adapters.parquetjava;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.crypto.ColumnDecryptionProperties;
import org.apache.parquet.crypto.ColumnEncryptionProperties;
import org.apache.parquet.crypto.FileDecryptionProperties;
import org.apache.parquet.crypto.FileEncryptionProperties;
import org.apache.parquet.crypto.ParquetCipher;
import org.apache.parquet.crypto.keytools.KeyToolkit;
import org.apache.parquet.crypto.keytools.PropertiesDrivenCryptoFactory;
import org.apache.parquet.hadoop.metadata.ColumnPath;

final class Encryption {
  private static final String EXPLICIT_PREFIX = "conformance-test:";
  private static final String FOOTER_ROLE = "footer";
  private static final String FILE_NAME = "<file name>"; // EncryptionOptions.FILE_NAME
  private static final String PARQUET_SUFFIX = ".parquet";
  // The master key ids the suite's KMS cases wrap with (conformance/kms/case_keys.py).
  private static final String FOOTER_MASTER_KEY = "footer_key";
  private static final String[] COLUMN_MASTER_KEYS = {"column_key_1", "column_key_2"};

  private Encryption() {}

  static FileEncryptionProperties properties(JsonNode e, String path) throws NoSuchAlgorithmException {
    FileEncryptionProperties keys = e.get("key_management").asText().equals("explicit")
        ? explicitKeys(e) : kmsKeys(e, path);
    FileEncryptionProperties.Builder builder = FileEncryptionProperties.builder(keys.getFooterKey())
        .withFooterKeyMetadata(keys.getFooterKeyMetadata())
        .withAlgorithm(ParquetCipher.valueOf(e.get("algorithm").asText()));
    if (e.get("column_keys").size() > 0) { // per column; the others stay plaintext
      builder.withEncryptedColumns(keys.getEncryptedColumns());
    }
    if (e.get("footer").asText().equals("plaintext")) {
      builder.withPlaintextFooter();
    }
    byte[] prefix = aadPrefix(e, path);
    if (prefix != null) {
      builder.withAADPrefix(prefix);
      if (!e.get("store_aad_prefix").asBoolean()) {
        builder.withoutAADPrefixStorage();
      }
    }
    return builder.build();
  }

  /** The AAD prefix: a fixed text, or the file's name without ".parquet" (FILE_NAME). */
  private static byte[] aadPrefix(JsonNode e, String path) {
    JsonNode prefix = e.get("aad_prefix");
    if (prefix == null || prefix.isNull()) {
      return null;
    }
    String text = prefix.asText();
    if (text.equals(FILE_NAME)) {
      String name = Path.of(path).getFileName().toString();
      text = name.endsWith(PARQUET_SUFFIX) ? name.substring(0, name.length() - PARQUET_SUFFIX.length()) : name;
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static FileEncryptionProperties explicitKeys(JsonNode e) throws NoSuchAlgorithmException {
    int bits = e.get("key_bits").asInt();
    Map<ColumnPath, ColumnEncryptionProperties> columns = new HashMap<>();
    for (JsonNode column : e.get("column_keys")) {
      String role = "column:" + column.asText();
      columns.put(ColumnPath.fromDotString(column.asText()),
          ColumnEncryptionProperties.builder(column.asText()).withKey(explicitKey(role, bits))
              .withKeyMetaData(keyName(role, bits)).build());
    }
    FileEncryptionProperties.Builder builder = FileEncryptionProperties.builder(explicitKey(FOOTER_ROLE, bits))
        .withFooterKeyMetadata(keyName(FOOTER_ROLE, bits));
    return (columns.isEmpty() ? builder : builder.withEncryptedColumns(columns)).build();
  }

  private static byte[] keyName(String role, int bits) {
    return (EXPLICIT_PREFIX + role + ":" + bits).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] explicitKey(String role, int bits) throws NoSuchAlgorithmException {
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(keyName(role, bits));
    return Arrays.copyOf(digest, bits / Byte.SIZE);
  }

  /** Data keys drawn and wrapped by parquet-java's PropertiesDrivenCryptoFactory, key
   * material stored in the footer (its defaults), as Spark writes them. */
  private static FileEncryptionProperties kmsKeys(JsonNode e, String path) {
    Configuration conf = new Configuration(false);
    conf.set(KeyToolkit.KMS_CLIENT_CLASS_PROPERTY_NAME, TestKms.class.getName());
    conf.setBoolean(KeyToolkit.DOUBLE_WRAPPING_PROPERTY_NAME, e.get("key_management").asText().equals("kms_double"));
    conf.setInt(KeyToolkit.DATA_KEY_LENGTH_PROPERTY_NAME, e.get("key_bits").asInt());
    conf.set(PropertiesDrivenCryptoFactory.ENCRYPTION_ALGORITHM_PROPERTY_NAME, e.get("algorithm").asText());
    if (e.get("column_keys").size() == 0) {
      conf.set(PropertiesDrivenCryptoFactory.UNIFORM_KEY_PROPERTY_NAME, FOOTER_MASTER_KEY);
    } else {
      conf.set(PropertiesDrivenCryptoFactory.FOOTER_KEY_PROPERTY_NAME, FOOTER_MASTER_KEY);
      conf.set(PropertiesDrivenCryptoFactory.COLUMN_KEYS_PROPERTY_NAME, columnKeys(e.get("column_keys")));
    }
    return new PropertiesDrivenCryptoFactory().getFileEncryptionProperties(conf,
        new org.apache.hadoop.fs.Path(path), null);
  }

  /** "column_key_1:a,c;column_key_2:b": the columns' master keys in turn. */
  private static String columnKeys(JsonNode columns) {
    Map<String, StringBuilder> byKey = new java.util.LinkedHashMap<>();
    for (int i = 0; i < columns.size(); i++) {
      StringBuilder list = byKey.computeIfAbsent(COLUMN_MASTER_KEYS[i % COLUMN_MASTER_KEYS.length],
          k -> new StringBuilder());
      list.append(list.length() == 0 ? "" : ",").append(columns.get(i).asText());
    }
    StringBuilder out = new StringBuilder();
    byKey.forEach((key, list) -> out.append(out.length() == 0 ? "" : ";").append(key).append(':').append(list));
    return out.toString();
  }

  /** The request's `keys` (footer_key, column_keys by dotted path, aad_prefix). */
  static FileDecryptionProperties decryption(JsonNode keys) {
    FileDecryptionProperties.Builder builder = FileDecryptionProperties.builder();
    if (keys.hasNonNull("footer_key")) {
      builder.withFooterKey(CanonicalValues.fromHex(keys.get("footer_key").asText()));
    }
    Map<ColumnPath, ColumnDecryptionProperties> columns = new HashMap<>();
    for (Map.Entry<String, JsonNode> entry : keys.path("column_keys").properties()) {
      ColumnPath column = ColumnPath.fromDotString(entry.getKey());
      columns.put(column, ColumnDecryptionProperties.builder(column)
          .withKey(CanonicalValues.fromHex(entry.getValue().asText())).build());
    }
    if (!columns.isEmpty()) {
      builder.withColumnKeys(columns);
    }
    if (keys.hasNonNull("aad_prefix")) {
      builder.withAADPrefix(keys.get("aad_prefix").asText().getBytes(StandardCharsets.UTF_8));
    }
    return builder.build();
  }
}
