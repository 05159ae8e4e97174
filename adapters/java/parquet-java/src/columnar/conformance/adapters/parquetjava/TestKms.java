/*
 * TEST-ONLY KMS client for parquet-java's key tools: the master keys a write request
 * hands over (`keys.kms_master_keys`, docs/engine-protocol.md 'write'), set in the
 * Hadoop configuration as "id:hex" entries. A key is wrapped as parquet-java's own test
 * InMemoryKMS does: KeyToolkit.encryptKeyLocally(key, master key, AAD = master key id),
 * which the suite's test KMS unwraps. Never use it for real data.
 */
package columnar.conformance.adapters.parquetjava;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.crypto.KeyAccessDeniedException;
import org.apache.parquet.crypto.keytools.KeyToolkit;
import org.apache.parquet.crypto.keytools.KmsClient;

public final class TestKms implements KmsClient {
  static final String MASTER_KEYS_PROPERTY = "columnar.conformance.test.master.keys";

  private final Map<String, byte[]> masterKeys = new HashMap<>();

  @Override
  public void initialize(Configuration configuration, String kmsInstanceID, String kmsInstanceURL,
      String accessToken) {
    for (String entry : configuration.getTrimmedStrings(MASTER_KEYS_PROPERTY)) {
      int colon = entry.indexOf(':');
      masterKeys.put(entry.substring(0, colon), CanonicalValues.fromHex(entry.substring(colon + 1)));
    }
  }

  private byte[] masterKey(String id) {
    byte[] key = masterKeys.get(id);
    if (key == null) {
      throw new KeyAccessDeniedException("master key '" + id + "' is not among the request's test master keys");
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
