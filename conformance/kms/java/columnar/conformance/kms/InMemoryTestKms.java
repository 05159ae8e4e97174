/*
 * TEST-ONLY in-memory KMS for Parquet modular encryption (columnar-conformance).
 *
 * The Java twin of conformance/kms/in_memory.py: master keys come from the Hadoop
 * property "parquet.encryption.key.list" ("keyId1:base64Key1, keyId2:base64Key2"),
 * and a key is wrapped with a master key as
 *
 *     base64( nonce (12 bytes) | AES-GCM ciphertext | tag (16 bytes) ),  AAD = UTF-8 master key id
 *
 * the scheme of parquet-java's test class InMemoryKMS (KeyToolkit.encryptKeyLocally),
 * implemented here with javax.crypto. Never use it for real data.
 */
package columnar.conformance.kms;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.crypto.KeyAccessDeniedException;
import org.apache.parquet.crypto.ParquetCryptoRuntimeException;
import org.apache.parquet.crypto.keytools.KmsClient;

public final class InMemoryTestKms implements KmsClient {
  public static final String KEY_LIST_PROPERTY_NAME = "parquet.encryption.key.list";

  private static final String CIPHER = "AES/GCM/NoPadding";
  private static final int NONCE_LENGTH = 12;
  private static final int TAG_LENGTH_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();

  private Map<String, byte[]> masterKeys = Collections.emptyMap();

  @Override
  public void initialize(Configuration configuration, String kmsInstanceID, String kmsInstanceURL,
      String accessToken) {
    String[] entries = configuration.getTrimmedStrings(KEY_LIST_PROPERTY_NAME);
    if (entries == null || entries.length == 0) {
      throw new ParquetCryptoRuntimeException("No master keys: set " + KEY_LIST_PROPERTY_NAME);
    }
    masterKeys = parseKeyList(entries);
  }

  static Map<String, byte[]> parseKeyList(String[] entries) {
    Map<String, byte[]> keys = new HashMap<>();
    for (String entry : entries) {
      int colon = entry.indexOf(':');
      if (colon <= 0) {
        throw new ParquetCryptoRuntimeException(
            KEY_LIST_PROPERTY_NAME + ": entry '" + entry + "': expected 'keyId:base64Key'");
      }
      String keyId = entry.substring(0, colon).trim();
      keys.put(keyId, Base64.getDecoder().decode(entry.substring(colon + 1).trim()));
    }
    return keys;
  }

  private byte[] masterKey(String masterKeyIdentifier) {
    byte[] key = masterKeys.get(masterKeyIdentifier);
    if (key == null) {
      throw new KeyAccessDeniedException("Master key '" + masterKeyIdentifier + "' is not in this test KMS");
    }
    return key;
  }

  private static Cipher cipher(int mode, byte[] key, byte[] nonce, String masterKeyIdentifier)
      throws GeneralSecurityException {
    Cipher cipher = Cipher.getInstance(CIPHER);
    cipher.init(mode, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_LENGTH_BITS, nonce));
    cipher.updateAAD(masterKeyIdentifier.getBytes(StandardCharsets.UTF_8));
    return cipher;
  }

  @Override
  public String wrapKey(byte[] keyBytes, String masterKeyIdentifier) {
    byte[] nonce = new byte[NONCE_LENGTH];
    RANDOM.nextBytes(nonce);
    try {
      byte[] sealed = cipher(Cipher.ENCRYPT_MODE, masterKey(masterKeyIdentifier), nonce, masterKeyIdentifier)
          .doFinal(keyBytes);
      byte[] wrapped = new byte[NONCE_LENGTH + sealed.length];
      System.arraycopy(nonce, 0, wrapped, 0, NONCE_LENGTH);
      System.arraycopy(sealed, 0, wrapped, NONCE_LENGTH, sealed.length);
      return Base64.getEncoder().encodeToString(wrapped);
    } catch (GeneralSecurityException e) {
      throw new ParquetCryptoRuntimeException("Cannot wrap a key with master key '" + masterKeyIdentifier + "'", e);
    }
  }

  @Override
  public byte[] unwrapKey(String wrappedKey, String masterKeyIdentifier) {
    byte[] wrapped = Base64.getDecoder().decode(wrappedKey);
    if (wrapped.length <= NONCE_LENGTH) {
      throw new KeyAccessDeniedException("Wrapped key too short: " + wrapped.length + " bytes");
    }
    byte[] nonce = new byte[NONCE_LENGTH];
    System.arraycopy(wrapped, 0, nonce, 0, NONCE_LENGTH);
    try {
      return cipher(Cipher.DECRYPT_MODE, masterKey(masterKeyIdentifier), nonce, masterKeyIdentifier)
          .doFinal(wrapped, NONCE_LENGTH, wrapped.length - NONCE_LENGTH);
    } catch (GeneralSecurityException e) {
      throw new KeyAccessDeniedException("Cannot unwrap a key with master key '" + masterKeyIdentifier + "'", e);
    }
  }
}
