/*
 * The value encoding a case asks for, as a parquet-java ValuesWriterFactory.
 *
 * parquet-java ties encodings to the writer version: PARQUET_1_0 writes PLAIN or
 * PLAIN_DICTIONARY, PARQUET_2_0 (data page v2) writes RLE_DICTIONARY or the DELTA
 * encodings, by physical type (DefaultV1ValuesWriterFactory / DefaultV2ValuesWriterFactory).
 * A case names the encoding and the page version separately, so this factory picks
 * parquet-java's own values writer for the encoding, whatever the page version:
 * ParquetProperties.Builder#withValuesWriterFactory is the library's hook for it.
 * ParquetWriter.Builder does not expose that method, so `install` sets it on the
 * builder's ParquetProperties.Builder by reflection (its private field
 * `encodingPropsBuilder`, parquet-java 1.17).
 */
package columnar.conformance.adapters.parquetjava;

import columnar.conformance.adapters.parquetjava.Adapter.Unsupported;
import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.bytestreamsplit.ByteStreamSplitValuesWriter;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForInteger;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForLong;
import org.apache.parquet.column.values.deltalengthbytearray.DeltaLengthByteArrayValuesWriter;
import org.apache.parquet.column.values.deltastrings.DeltaByteArrayWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.column.values.plain.BooleanPlainValuesWriter;
import org.apache.parquet.column.values.plain.FixedLenByteArrayPlainValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridValuesWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

final class Encodings implements ValuesWriterFactory {
  private static final String PROPERTIES_FIELD = "encodingPropsBuilder";
  private static final int BOOLEAN_BIT_WIDTH = 1;
  private static final int INT96_LENGTH = 12;

  // Physical types each encoding takes in parquet-java 1.17 (the values writers below;
  // Encodings.md, 'Supported Encodings' allows the same). parquet-java has no dictionary
  // writer for BOOLEAN (DictionaryValuesWriter's subclasses: Binary, FixedLenArray,
  // Integer, Long, Float, Double).
  private static final List<PrimitiveTypeName> NOT_BOOLEAN = List.of(PrimitiveTypeName.INT32,
      PrimitiveTypeName.INT64, PrimitiveTypeName.INT96, PrimitiveTypeName.FLOAT, PrimitiveTypeName.DOUBLE,
      PrimitiveTypeName.BINARY, PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY);
  static final Map<String, List<PrimitiveTypeName>> PHYSICAL_TYPES = Map.of(
      "PLAIN", List.of(PrimitiveTypeName.values()),
      "PLAIN_DICTIONARY", NOT_BOOLEAN,
      "RLE_DICTIONARY", NOT_BOOLEAN,
      "RLE", List.of(PrimitiveTypeName.BOOLEAN),
      "DELTA_BINARY_PACKED", List.of(PrimitiveTypeName.INT32, PrimitiveTypeName.INT64),
      "DELTA_LENGTH_BYTE_ARRAY", List.of(PrimitiveTypeName.BINARY),
      "DELTA_BYTE_ARRAY", List.of(PrimitiveTypeName.BINARY, PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY),
      "BYTE_STREAM_SPLIT", List.of(PrimitiveTypeName.FLOAT, PrimitiveTypeName.DOUBLE,
          PrimitiveTypeName.INT32, PrimitiveTypeName.INT64, PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY));

  private final String encoding;
  private final boolean withFallback;
  private ParquetProperties properties;

  private Encodings(String encoding, boolean withFallback) {
    this.encoding = encoding;
    this.withFallback = withFallback;
  }

  /** Makes `builder` write every column in `encoding`, a dictionary encoding falling back
   * to PLAIN only `withFallback` (Unsupported for a column whose
   * physical type parquet-java cannot write in it). */
  static void install(ParquetWriter.Builder<?, ?> builder, String encoding, boolean withFallback,
      MessageType schema)
      throws Unsupported, ReflectiveOperationException {
    for (ColumnDescriptor column : schema.getColumns()) {
      PrimitiveTypeName physical = column.getPrimitiveType().getPrimitiveTypeName();
      if (!PHYSICAL_TYPES.get(encoding).contains(physical)) {
        throw new Unsupported("column " + String.join(".", column.getPath()) + ": parquet-java 1.17 has no "
            + encoding + " values writer for " + physical + " (it writes " + encoding + " for "
            + PHYSICAL_TYPES.get(encoding) + ")");
      }
    }
    Field field = ParquetWriter.Builder.class.getDeclaredField(PROPERTIES_FIELD);
    field.setAccessible(true);
    ((ParquetProperties.Builder) field.get(builder)).withValuesWriterFactory(new Encodings(encoding, withFallback));
  }

  @Override
  public void initialize(ParquetProperties properties) {
    this.properties = properties;
  }

  @Override
  @SuppressWarnings("deprecation") // PLAIN_DICTIONARY: deprecated, and what the case asks for
  public ValuesWriter newValuesWriter(ColumnDescriptor column) {
    switch (encoding) {
      case "PLAIN_DICTIONARY":
        // The dictionary page as PLAIN_DICTIONARY too: what PARQUET_1_0 writes.
        return dictionary(column, Encoding.PLAIN_DICTIONARY, Encoding.PLAIN_DICTIONARY);
      case "RLE_DICTIONARY":
        return dictionary(column, Encoding.RLE_DICTIONARY, Encoding.PLAIN);
      default:
        return valuesWriter(column, encoding);
    }
  }

  private ValuesWriter valuesWriter(ColumnDescriptor column, String name) {
    int initial = properties.getInitialSlabSize();
    int pageSize = properties.getPageSizeThreshold();
    ByteBufferAllocator allocator = properties.getAllocator();
    PrimitiveTypeName physical = column.getPrimitiveType().getPrimitiveTypeName();
    int length = column.getPrimitiveType().getTypeLength();
    switch (name) {
      case "RLE":
        return new RunLengthBitPackingHybridValuesWriter(BOOLEAN_BIT_WIDTH, initial, pageSize, allocator);
      case "DELTA_BINARY_PACKED":
        return physical == PrimitiveTypeName.INT32
            ? new DeltaBinaryPackingValuesWriterForInteger(initial, pageSize, allocator)
            : new DeltaBinaryPackingValuesWriterForLong(initial, pageSize, allocator);
      case "DELTA_LENGTH_BYTE_ARRAY":
        return new DeltaLengthByteArrayValuesWriter(initial, pageSize, allocator);
      case "DELTA_BYTE_ARRAY":
        return new DeltaByteArrayWriter(initial, pageSize, allocator);
      case "BYTE_STREAM_SPLIT":
        return byteStreamSplit(physical, length, initial, pageSize, allocator);
      default: // PLAIN
        return plain(physical, length, initial, pageSize, allocator);
    }
  }

  private static ValuesWriter plain(PrimitiveTypeName physical, int length, int initial, int pageSize,
      ByteBufferAllocator allocator) {
    switch (physical) {
      case BOOLEAN: return new BooleanPlainValuesWriter();
      case FIXED_LEN_BYTE_ARRAY: return new FixedLenByteArrayPlainValuesWriter(length, initial, pageSize, allocator);
      case INT96: // 12 bytes each, no length prefix (as DefaultV1ValuesWriterFactory writes it)
        return new FixedLenByteArrayPlainValuesWriter(INT96_LENGTH, initial, pageSize, allocator);
      default: return new PlainValuesWriter(initial, pageSize, allocator);
    }
  }

  private static ValuesWriter byteStreamSplit(PrimitiveTypeName physical, int length, int initial,
      int pageSize, ByteBufferAllocator allocator) {
    switch (physical) {
      case FLOAT: return new ByteStreamSplitValuesWriter.FloatByteStreamSplitValuesWriter(initial, pageSize, allocator);
      case DOUBLE: return new ByteStreamSplitValuesWriter.DoubleByteStreamSplitValuesWriter(initial, pageSize, allocator);
      case INT32: return new ByteStreamSplitValuesWriter.IntegerByteStreamSplitValuesWriter(initial, pageSize, allocator);
      case INT64: return new ByteStreamSplitValuesWriter.LongByteStreamSplitValuesWriter(initial, pageSize, allocator);
      default:
        return new ByteStreamSplitValuesWriter.FixedLenByteArrayByteStreamSplitValuesWriter(
            length, initial, pageSize, allocator);
    }
  }

  /** parquet-java's dictionary writer. With a dictionary size limit, wrapped in its PLAIN
   * fallback (past `withDictionaryPageSize`); without one, alone: the fallback writer also
   * drops the dictionary when it does not make the first page smaller (measured: unique
   * INT32 values came out PLAIN), and the case asks for a dictionary. */
  private ValuesWriter dictionary(ColumnDescriptor column, Encoding dataPage, Encoding dictionaryPage) {
    int limit = properties.getDictionaryPageSizeThreshold();
    ByteBufferAllocator allocator = properties.getAllocator();
    DictionaryValuesWriter writer;
    switch (column.getPrimitiveType().getPrimitiveTypeName()) {
      case INT32:
        writer = new DictionaryValuesWriter.PlainIntegerDictionaryValuesWriter(limit, dataPage, dictionaryPage, allocator);
        break;
      case INT64:
        writer = new DictionaryValuesWriter.PlainLongDictionaryValuesWriter(limit, dataPage, dictionaryPage, allocator);
        break;
      case FLOAT:
        writer = new DictionaryValuesWriter.PlainFloatDictionaryValuesWriter(limit, dataPage, dictionaryPage, allocator);
        break;
      case DOUBLE:
        writer = new DictionaryValuesWriter.PlainDoubleDictionaryValuesWriter(limit, dataPage, dictionaryPage, allocator);
        break;
      case BINARY:
        writer = new DictionaryValuesWriter.PlainBinaryDictionaryValuesWriter(limit, dataPage, dictionaryPage, allocator);
        break;
      default: // FIXED_LEN_BYTE_ARRAY, INT96 (12 bytes)
        int length = column.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT96
            ? INT96_LENGTH : column.getPrimitiveType().getTypeLength();
        writer = new DictionaryValuesWriter.PlainFixedLenArrayDictionaryValuesWriter(
            limit, length, dataPage, dictionaryPage, allocator);
    }
    return withFallback ? FallbackValuesWriter.of(writer, valuesWriter(column, "PLAIN")) : writer;
  }
}
