/*
 * Scalar conversions between canonical JSON values (docs/canonical-values.md) and the
 * Java values parquet-java's Group API takes and returns.
 */
package columnar.conformance.adapters.parquetjava;

import columnar.conformance.adapters.parquetjava.Adapter.LossyConversion;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.UUID;
import org.apache.parquet.example.data.simple.NanoTime;
import org.apache.parquet.io.api.Binary;

final class CanonicalValues {
  private static final HexFormat HEX = HexFormat.of();
  private static final String NAN_PREFIX = "nan:0x";
  private static final long QUIET_NAN_BITS = 0x7ff8000000000000L;
  // IEEE 754 layouts: sign | exponent | mantissa.
  private static final int FLOAT_MANTISSA_BITS = 23;
  private static final int HALF_MANTISSA_BITS = 10;
  private static final int DOUBLE_MANTISSA_BITS = 52;
  private static final int HALF_BIAS = 15;
  private static final int HALF_MIN_EXPONENT = -14;
  private static final long DOUBLE_EXPONENT_MASK = 0x7ff0000000000000L;
  private static final long DOUBLE_MANTISSA_MASK = (1L << DOUBLE_MANTISSA_BITS) - 1;
  // INT96: Julian day number of 1970-01-01, and nanoseconds per day.
  private static final long JULIAN_EPOCH_DAY = 2_440_588L;
  private static final BigInteger NANOS_PER_DAY = BigInteger.valueOf(86_400_000_000_000L);
  private static final int INTERVAL_FIELDS = 3;
  private static final long UINT32_MASK = 0xffffffffL;

  private CanonicalValues() {}

  // ---- floats: exact bit patterns (canonical-values.md, 'Values') ------------------

  /** The double a canonical float string names, bit for bit. */
  static double parseDouble(String text) {
    if (text.startsWith(NAN_PREFIX)) {
      return Double.longBitsToDouble(Long.parseUnsignedLong(text.substring(NAN_PREFIX.length()), 16));
    }
    switch (text) {
      case "nan": return Double.longBitsToDouble(QUIET_NAN_BITS);
      case "inf": return Double.POSITIVE_INFINITY;
      case "-inf": return Double.NEGATIVE_INFINITY;
      default: return Double.parseDouble(text);
    }
  }

  /** The canonical text of a double: Java's shortest round-trip form parses back to the
   * same bits in Python; NaNs keep their payload. */
  static String formatDouble(double value) {
    long bits = Double.doubleToRawLongBits(value);
    if (Double.isNaN(value)) {
      return bits == QUIET_NAN_BITS ? "nan" : NAN_PREFIX + String.format("%016x", bits);
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "inf" : "-inf";
    }
    return Double.toString(value);
  }

  /** A FLOAT's bits as a double (NaN payload moved to the top mantissa bits, never
   * quieted, which the hardware float -> double conversion would do). */
  static double widenFloat(float value) {
    return widen(Float.floatToRawIntBits(value) & UINT32_MASK, 8, FLOAT_MANTISSA_BITS);
  }

  /** A FLOAT16 (2 bytes, little-endian) as a double. */
  static double widenHalf(byte[] twoBytes) {
    int bits = (twoBytes[0] & 0xff) | (twoBytes[1] & 0xff) << 8;
    return widen(bits, 5, HALF_MANTISSA_BITS);
  }

  private static double widen(long bits, int exponentBits, int mantissaBits) {
    long sign = bits >>> (exponentBits + mantissaBits);
    long exponentMax = (1L << exponentBits) - 1;
    long exponent = (bits >>> mantissaBits) & exponentMax;
    long mantissa = bits & ((1L << mantissaBits) - 1);
    if (exponent == exponentMax) { // inf or NaN: keep the payload bits
      return Double.longBitsToDouble(sign << 63 | DOUBLE_EXPONENT_MASK
          | mantissa << (DOUBLE_MANTISSA_BITS - mantissaBits));
    }
    int bias = (int) (exponentMax >> 1);
    double magnitude = exponent == 0
        ? Math.scalb((double) mantissa, 1 - bias - mantissaBits) // subnormal
        : Math.scalb((double) (mantissa | 1L << mantissaBits), (int) exponent - bias - mantissaBits);
    return sign == 0 ? magnitude : -magnitude;
  }

  /** The FLOAT exactly equal to `value` (canonical values are exact by construction). */
  static float narrowFloat(double value) {
    if (Double.isNaN(value)) {
      long bits = Double.doubleToRawLongBits(value);
      int payload = (int) ((bits & DOUBLE_MANTISSA_MASK) >>> (DOUBLE_MANTISSA_BITS - FLOAT_MANTISSA_BITS));
      return Float.intBitsToFloat((int) (bits >>> 63) << 31 | 0x7f800000 | payload);
    }
    return (float) value;
  }

  /** The FLOAT16 bytes (little-endian) of `value`, which a FLOAT16 holds exactly. */
  static byte[] narrowHalf(double value) {
    long bits = Double.doubleToRawLongBits(value);
    int sign = (int) (bits >>> 63) << 15;
    int half;
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      half = sign | 0x7c00 | (int) ((bits & DOUBLE_MANTISSA_MASK) >>> (DOUBLE_MANTISSA_BITS - HALF_MANTISSA_BITS));
    } else {
      half = sign | finiteHalfBits(Math.abs(value));
    }
    return new byte[] {(byte) half, (byte) (half >>> 8)};
  }

  private static int finiteHalfBits(double magnitude) {
    int exponent = Math.getExponent(magnitude);
    if (magnitude == 0) {
      return 0;
    }
    if (exponent < HALF_MIN_EXPONENT) { // subnormal: a multiple of 2^-24
      return (int) Math.scalb(magnitude, -HALF_MIN_EXPONENT + HALF_MANTISSA_BITS);
    }
    int mantissa = (int) Math.scalb(magnitude, HALF_MANTISSA_BITS - exponent) & ((1 << HALF_MANTISSA_BITS) - 1);
    return (exponent + HALF_BIAS) << HALF_MANTISSA_BITS | mantissa;
  }

  // ---- decimals -------------------------------------------------------------------

  static BigInteger unscaled(String text, int scale) {
    return new BigDecimal(text).setScale(scale).unscaledValue();
  }

  static String formatDecimal(BigInteger unscaled, int scale) {
    return new BigDecimal(unscaled, scale).toPlainString();
  }

  /** Big-endian two's complement in exactly `length` bytes (FIXED_LEN_BYTE_ARRAY), or the
   * minimal length when `length` is 0 (BYTE_ARRAY). */
  static byte[] twosComplement(BigInteger value, int length) {
    byte[] minimal = value.toByteArray();
    if (length == 0 || minimal.length == length) {
      return minimal;
    }
    byte[] out = new byte[length];
    byte fill = (byte) (value.signum() < 0 ? 0xff : 0);
    int pad = length - minimal.length;
    for (int i = 0; i < length; i++) {
      out[i] = i < pad ? fill : minimal[i - pad];
    }
    return out;
  }

  // ---- INT96, UUID, INTERVAL, bytes ------------------------------------------------

  static NanoTime int96(String nanosSinceEpoch) {
    BigInteger[] dayAndNanos = new BigInteger(nanosSinceEpoch).divideAndRemainder(NANOS_PER_DAY);
    BigInteger day = dayAndNanos[0];
    BigInteger nanos = dayAndNanos[1];
    if (nanos.signum() < 0) { // floor division
      day = day.subtract(BigInteger.ONE);
      nanos = nanos.add(NANOS_PER_DAY);
    }
    return new NanoTime(day.add(BigInteger.valueOf(JULIAN_EPOCH_DAY)).intValueExact(), nanos.longValueExact());
  }

  static String int96Nanos(Binary int96) {
    NanoTime time = NanoTime.fromBinary(int96);
    // The Julian day is an unsigned 32-bit count in the file; the nanoseconds a signed 64-bit one.
    BigInteger day = BigInteger.valueOf(Integer.toUnsignedLong(time.getJulianDay()) - JULIAN_EPOCH_DAY);
    return day.multiply(NANOS_PER_DAY).add(BigInteger.valueOf(time.getTimeOfDayNanos())).toString();
  }

  static byte[] uuidBytes(String text) {
    UUID uuid = UUID.fromString(text);
    return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
        .putLong(uuid.getLeastSignificantBits()).array();
  }

  static String uuidText(byte[] bytes) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    return new UUID(buffer.getLong(), buffer.getLong()).toString();
  }

  /** INTERVAL: months, days, milliseconds, each a little-endian uint32. */
  static byte[] intervalBytes(long[] fields) {
    ByteBuffer buffer = ByteBuffer.allocate(4 * INTERVAL_FIELDS).order(ByteOrder.LITTLE_ENDIAN);
    for (long field : fields) {
      buffer.putInt((int) field);
    }
    return buffer.array();
  }

  static long[] intervalFields(byte[] bytes) {
    if (bytes.length != 4 * INTERVAL_FIELDS) {
      throw new LossyConversion("INTERVAL value of " + bytes.length + " bytes, not 12");
    }
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    long[] fields = new long[INTERVAL_FIELDS];
    for (int i = 0; i < INTERVAL_FIELDS; i++) {
      fields[i] = buffer.getInt() & UINT32_MASK;
    }
    return fields;
  }

  static byte[] fromHex(String hex) {
    return HEX.parseHex(hex);
  }

  static String hex(byte[] bytes) {
    return HEX.formatHex(bytes);
  }
}
