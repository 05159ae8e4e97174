/*
 * Scalar conversions between canonical JSON values (docs/canonical-values.md, 'Values'
 * and 'ORC') and what orc-core's column vectors hold: floats bit for bit, decimals at
 * their scale, timestamps as (seconds, nanoseconds), wall clocks and their instants.
 */
package columnar.conformance.adapters.orcjava;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HexFormat;
import java.util.TimeZone;

final class CanonicalValues {
  static final long NANOS_PER_SECOND = 1_000_000_000L;
  static final long MILLIS_PER_SECOND = 1_000L;
  static final long NANOS_PER_MILLI = 1_000_000L;
  private static final BigInteger BIG_NANOS_PER_SECOND = BigInteger.valueOf(NANOS_PER_SECOND);
  private static final HexFormat HEX = HexFormat.of();
  private static final String NAN_PREFIX = "nan:0x";
  private static final long QUIET_NAN_BITS = 0x7ff8000000000000L;

  private CanonicalValues() {}

  // ---- floats: exact bit patterns -------------------------------------------------

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

  // ---- decimals -------------------------------------------------------------------

  static String formatDecimal(BigDecimal value, int scale) {
    try {
      return value.setScale(scale).toPlainString();
    } catch (ArithmeticException e) {
      throw new Adapter.LossyConversion("decimal " + value.toPlainString() + " has more than "
          + scale + " fraction digits");
    }
  }

  // ---- timestamps: nanoseconds since the epoch <-> (seconds, nanos of the second) ----

  /** {seconds, nanos} of a canonical timestamp count (a decimal string of any size that
   * fits 64-bit seconds). */
  static long[] secondsAndNanos(String count) {
    BigInteger[] parts = new BigInteger(count).divideAndRemainder(BIG_NANOS_PER_SECOND);
    BigInteger seconds = parts[0];
    BigInteger nanos = parts[1];
    if (nanos.signum() < 0) { // floor division
      seconds = seconds.subtract(BigInteger.ONE);
      nanos = nanos.add(BIG_NANOS_PER_SECOND);
    }
    return new long[] {seconds.longValueExact(), nanos.longValueExact()};
  }

  static String count(long seconds, long nanos) {
    return BigInteger.valueOf(seconds).multiply(BIG_NANOS_PER_SECOND).add(BigInteger.valueOf(nanos)).toString();
  }

  /** The instant (epoch milliseconds) at which `zone`'s clocks read the wall clock
   * `wallMillis` (as if UTC), with the offsets orc-core's writer applies: those of
   * java.util.TimeZone, which before a zone's first transition are the offset that
   * transition leads to, not local mean time (docs/orc-spec-notes.md, note 13). Where
   * the clock repeats, the first instant. */
  static long wallClockInstant(long wallMillis, TimeZone zone) {
    return wallMillis - zone.getOffset(wallMillis - zone.getOffset(wallMillis));
  }

  // ---- bytes ----------------------------------------------------------------------

  static byte[] fromHex(String hex) {
    return HEX.parseHex(hex);
  }

  static String hex(byte[] bytes, int start, int length) {
    return HEX.formatHex(bytes, start, start + length);
  }
}
