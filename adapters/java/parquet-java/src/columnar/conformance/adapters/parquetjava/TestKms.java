/*
 * TEST-ONLY KMS client for parquet-java's key tools: the suite's fixed, public test master
 * keys (conformance/kms/in_memory.py, TEST_MASTER_KEYS), wrapping a key as parquet-java's
 * own test InMemoryKMS does: KeyToolkit.encryptKeyLocally(key, master key, AAD = master key
 * id), i.e. base64(nonce | AES-GCM ciphertext | tag). Files it wraps unwrap with the
 * suite's Python and Java test KMS. Never use it for real data.
 */
package columnar.conformance.adapters.parquetjava;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.crypto.KeyAccessDeniedException;
import org.apache.parquet.crypto.keytools.KeyToolkit;
import org.apache.parquet.crypto.keytools.KmsClient;

public final class TestKms implements KmsClient {
  // footer_key = bytes 0..15, column_key_1 = bytes 16..39, column_key_2 = bytes 40..71.
  private static final Map<String, byte[]> MASTER_KEYS = Map.of(
      "footer_key", range(0, 16), "column_key_1", range(16, 40), "column_key_2", range(40, 72));

  private static byte[] range(int from, int to) {
    byte[] key = new byte[to - from];
    for (int i = from; i < to; i++) {
      key[i - from] = (byte) i;
    }
    return key;
  }

  @Override
  public void initialize(Configuration configuration, String kmsInstanceID, String kmsInstanceURL,
      String accessToken) {}

  private static byte[] masterKey(String id) {
    byte[] key = MASTER_KEYS.get(id);
    if (key == null) {
      throw new KeyAccessDeniedException("master key '" + id + "' is not a test master key");
    }
    return key;
  }

  @Override
  public String wrapKey(byte[] key, String masterKeyIdentifier) {
    return KeyToolkit.encryptKeyLocally(key, masterKey(masterKeyIdentifier),
        masterKeyIdentifier.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public byte[] unwrapKey(String wrappedKey, String masterKeyIdentifier) {
    return KeyToolkit.decryptKeyLocally(wrappedKey, masterKey(masterKeyIdentifier),
        masterKeyIdentifier.getBytes(StandardCharsets.UTF_8));
  }
}
