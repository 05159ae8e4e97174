/*
 * Parquet modular encryption with parquet-java's crypto API (Encryption.md).
 *
 * Writing (a case's options.encryption, with the request's `keys`, docs/engine-protocol.md
 * 'write'):
 * - key_management "explicit": the request's data keys, each with its key_metadata, given
 *   to FileEncryptionProperties / ColumnEncryptionProperties directly;
 * - "kms" / "kms_double": parquet-java's own key tools, PropertiesDrivenCryptoFactory,
 *   drawing the data keys and wrapping them (single or double) with `TestKms` over the
 *   request's master keys; each key's master key is the one its key material names.
 * Then the algorithm, plaintext footer and AAD prefix (stored, or to be supplied).
 *
 * Reading: the request's explicit keys (hex) and AAD prefix -> FileDecryptionProperties.
 */
package columnar.conformance.adapters.parquetjava;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
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
  // The key material field naming the master key that wraps a data key (parquet-java's
  // KeyMaterial, as the suite's test KMS writes it too).
  private static final String MASTER_KEY_ID_FIELD = "masterKeyID";

  private Encryption() {}

  static FileEncryptionProperties properties(JsonNode e, JsonNode keys, String path) throws IOException {
    FileEncryptionProperties drawn = e.get("key_management").asText().equals("explicit")
        ? explicitKeys(keys) : kmsKeys(e, keys, path);
    FileEncryptionProperties.Builder builder = FileEncryptionProperties.builder(drawn.getFooterKey())
        .withFooterKeyMetadata(drawn.getFooterKeyMetadata())
        .withAlgorithm(ParquetCipher.valueOf(e.get("algorithm").asText()));
    if (e.get("column_keys").size() > 0) { // per column; the others stay plaintext
      builder.withEncryptedColumns(drawn.getEncryptedColumns());
    }
    if (e.get("footer").asText().equals("plaintext")) {
      builder.withPlaintextFooter();
    }
    if (keys.hasNonNull("aad_prefix")) {
      builder.withAADPrefix(keys.get("aad_prefix").asText().getBytes(StandardCharsets.UTF_8));
      if (!e.get("store_aad_prefix").asBoolean()) {
        builder.withoutAADPrefixStorage();
      }
    }
    return builder.build();
  }

  private static FileEncryptionProperties explicitKeys(JsonNode keys) {
    Map<ColumnPath, ColumnEncryptionProperties> columns = new HashMap<>();
    for (Map.Entry<String, JsonNode> entry : keys.get("column_keys").properties()) {
      String column = entry.getKey();
      columns.put(ColumnPath.fromDotString(column), ColumnEncryptionProperties.builder(column)
          .withKey(CanonicalValues.fromHex(entry.getValue().asText()))
          .withKeyMetaData(utf8(keys.get("column_key_metadata").get(column))).build());
    }
    FileEncryptionProperties.Builder builder = FileEncryptionProperties
        .builder(CanonicalValues.fromHex(keys.get("footer_key").asText()))
        .withFooterKeyMetadata(utf8(keys.get("footer_key_metadata")));
    return (columns.isEmpty() ? builder : builder.withEncryptedColumns(columns)).build();
  }

  private static byte[] utf8(JsonNode text) {
    return text.asText().getBytes(StandardCharsets.UTF_8);
  }

  /** Data keys drawn and wrapped by parquet-java's PropertiesDrivenCryptoFactory, key
   * material stored in the footer (its defaults), as Spark writes them. */
  private static FileEncryptionProperties kmsKeys(JsonNode e, JsonNode keys, String path) throws IOException {
    Configuration conf = new Configuration(false);
    conf.set(KeyToolkit.KMS_CLIENT_CLASS_PROPERTY_NAME, TestKms.class.getName());
    conf.setStrings(TestKms.MASTER_KEYS_PROPERTY, masterKeyEntries(keys.get("kms_master_keys")));
    conf.setBoolean(KeyToolkit.DOUBLE_WRAPPING_PROPERTY_NAME, e.get("key_management").asText().equals("kms_double"));
    conf.setInt(KeyToolkit.DATA_KEY_LENGTH_PROPERTY_NAME, e.get("key_bits").asInt());
    conf.set(PropertiesDrivenCryptoFactory.ENCRYPTION_ALGORITHM_PROPERTY_NAME, e.get("algorithm").asText());
    String footerMasterKey = masterKeyOf(keys.get("footer_key_metadata"));
    if (e.get("column_keys").size() == 0) {
      conf.set(PropertiesDrivenCryptoFactory.UNIFORM_KEY_PROPERTY_NAME, footerMasterKey);
    } else {
      conf.set(PropertiesDrivenCryptoFactory.FOOTER_KEY_PROPERTY_NAME, footerMasterKey);
      conf.set(PropertiesDrivenCryptoFactory.COLUMN_KEYS_PROPERTY_NAME, columnKeys(keys.get("column_key_metadata")));
    }
    return new PropertiesDrivenCryptoFactory().getFileEncryptionProperties(conf,
        new org.apache.hadoop.fs.Path(path), null);
  }

  private static String[] masterKeyEntries(JsonNode masterKeys) {
    List<String> entries = new ArrayList<>();
    masterKeys.properties().forEach(entry -> entries.add(entry.getKey() + ":" + entry.getValue().asText()));
    return entries.toArray(new String[0]);
  }

  /** The master key a key material text names. */
  private static String masterKeyOf(JsonNode keyMaterial) throws IOException {
    return Adapter.JSON.readTree(keyMaterial.asText()).get(MASTER_KEY_ID_FIELD).asText();
  }

  /** "column_key_1:a,c;column_key_2:b": each column under the master key its material names. */
  private static String columnKeys(JsonNode columnKeyMetadata) throws IOException {
    Map<String, List<String>> byKey = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> entry : columnKeyMetadata.properties()) {
      byKey.computeIfAbsent(masterKeyOf(entry.getValue()), k -> new ArrayList<>()).add(entry.getKey());
    }
    StringBuilder out = new StringBuilder();
    byKey.forEach((key, columns) -> out.append(out.length() == 0 ? "" : ";").append(key).append(':')
        .append(String.join(",", columns)));
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
