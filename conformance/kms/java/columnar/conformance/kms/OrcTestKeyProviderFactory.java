/*
 * TEST-ONLY key provider for ORC column encryption (ORCv1.md, 'Encryption Keys'), so that
 * Spark's ORC writer and reader (ORC Java) can take the suite's test keys through options.
 *
 * ORC Java finds its key provider by the kind its "orc.key.provider" property names,
 * asking each KeyProvider.Factory the JVM's ServiceLoader lists (META-INF/services). For
 * the kind "conformance-test" this factory answers with orc-core's own InMemoryKeystore
 * holding the keys of the property "orc.conformance.test.keys": "name:version:hex, ..."
 * (the form of `conformance read --orc-key`), AES_CTR_128 for a 16-byte key and
 * AES_CTR_256 for a 32-byte one. Never use it for real data.
 */
package columnar.conformance.kms;

import java.io.IOException;
import java.util.HexFormat;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.orc.EncryptionAlgorithm;
import org.apache.orc.InMemoryKeystore;
import org.apache.orc.impl.KeyProvider;

public final class OrcTestKeyProviderFactory implements KeyProvider.Factory {
  public static final String KIND = "conformance-test";
  public static final String KEYS_PROPERTY = "orc.conformance.test.keys";
  private static final String ENTRY_SEPARATOR = ",";
  private static final String FIELD_SEPARATOR = ":";

  @Override
  public KeyProvider create(String kind, Configuration conf, Random random) throws IOException {
    if (!KIND.equals(kind)) {
      return null; // another factory's kind
    }
    InMemoryKeystore keystore = new InMemoryKeystore(random);
    for (String entry : conf.get(KEYS_PROPERTY, "").split(ENTRY_SEPARATOR)) {
      if (!entry.isBlank()) {
        addKey(keystore, entry.trim());
      }
    }
    return keystore;
  }

  private static void addKey(InMemoryKeystore keystore, String entry) throws IOException {
    String[] fields = entry.split(FIELD_SEPARATOR);
    if (fields.length != 3) {
      throw new IOException(KEYS_PROPERTY + ": expected name:version:hex, got '" + entry + "'");
    }
    byte[] key = HexFormat.of().parseHex(fields[2]);
    EncryptionAlgorithm algorithm = key.length == EncryptionAlgorithm.AES_CTR_256.keyLength()
        ? EncryptionAlgorithm.AES_CTR_256 : EncryptionAlgorithm.AES_CTR_128;
    keystore.addKey(fields[0], Integer.parseInt(fields[1]), algorithm, key);
  }
}
