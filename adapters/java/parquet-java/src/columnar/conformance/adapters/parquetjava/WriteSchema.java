/*
 * Canonical schema -> parquet-java MessageType, and canonical rows -> Groups.
 *
 * Each canonical field becomes one Parquet field (Types builders and LogicalTypeAnnotation),
 * nested types in the standard layouts of LogicalTypes.md: a LIST is
 * `<rep> group <name> (LIST) { repeated group list { <rep> <element> } }`, a MAP is
 * `<rep> group <name> (MAP) { repeated group key_value { required key; <rep> value } }`,
 * a struct a plain group, a VARIANT `group (VARIANT(1)) { required binary metadata;
 * required binary value }`. Alongside, a `ValueWriter` tree puts each value into a Group
 * with the Group API's `add` / `addGroup`.
 */
package columnar.conformance.adapters.parquetjava;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.column.schema.EdgeInterpolationAlgorithm;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

final class WriteSchema {
  static final String MESSAGE_NAME = "schema";
  private static final byte VARIANT_SPEC_VERSION = 1;
  private static final int UUID_LENGTH = 16;
  private static final int INTERVAL_LENGTH = 12;
  private static final int FLOAT16_LENGTH = 2;

  /** Puts one non-null canonical value into field `index` of `parent`. */
  interface ValueWriter {
    void write(Group parent, int index, JsonNode value);
  }

  /** A Parquet field and the writer of its values. */
  record Column(Type type, ValueWriter writer) {}

  final MessageType message;
  private final List<ValueWriter> writers = new ArrayList<>();

  WriteSchema(JsonNode schema) {
    List<Type> fields = new ArrayList<>();
    for (JsonNode field : schema) {
      Column column = column(field, field.get("name").asText());
      fields.add(column.type());
      writers.add(column.writer());
    }
    message = new MessageType(MESSAGE_NAME, fields);
  }

  /** Fills `record` (a Group of `message`) with one canonical row. */
  void fill(Group record, JsonNode row) {
    for (int i = 0; i < writers.size(); i++) {
      if (!row.get(i).isNull()) {
        writers.get(i).write(record, i, row.get(i));
      }
    }
  }

  private static Repetition repetition(JsonNode field) {
    return field.get("nullable").asBoolean() ? Repetition.OPTIONAL : Repetition.REQUIRED;
  }

  static Column column(JsonNode field, String name) {
    JsonNode type = field.get("type");
    Repetition repetition = repetition(field);
    switch (type.get("kind").asText()) {
      case "list": return list(type.get("element"), name, repetition);
      case "map": return map(type.get("key"), type.get("value"), name, repetition);
      case "struct": return struct(type.get("fields"), name, repetition);
      case "variant": return variant(name, repetition);
      default: return primitive(type, name, repetition);
    }
  }

  private static Column list(JsonNode element, String name, Repetition repetition) {
    Column inner = column(element, "element");
    Type type = Types.buildGroup(repetition).as(LogicalTypeAnnotation.listType())
        .addField(Types.repeatedGroup().addField(inner.type()).named("list")).named(name);
    ValueWriter writer = (parent, index, value) -> {
      Group list = parent.addGroup(index);
      for (JsonNode item : value) {
        Group entry = list.addGroup(0);
        if (!item.isNull()) {
          inner.writer().write(entry, 0, item);
        }
      }
    };
    return new Column(type, writer);
  }

  private static Column map(JsonNode keyField, JsonNode valueField, String name, Repetition repetition) {
    Column key = column(keyField, "key");
    Column value = column(valueField, "value");
    Type type = Types.buildGroup(repetition).as(LogicalTypeAnnotation.mapType())
        .addField(Types.repeatedGroup().addField(key.type()).addField(value.type()).named("key_value"))
        .named(name);
    ValueWriter writer = (parent, index, pairs) -> {
      Group map = parent.addGroup(index);
      for (JsonNode pair : pairs) {
        Group entry = map.addGroup(0);
        key.writer().write(entry, 0, pair.get(0));
        if (!pair.get(1).isNull()) {
          value.writer().write(entry, 1, pair.get(1));
        }
      }
    };
    return new Column(type, writer);
  }

  private static Column struct(JsonNode fields, String name, Repetition repetition) {
    List<Type> types = new ArrayList<>();
    List<Column> columns = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (JsonNode field : fields) {
      Column column = column(field, field.get("name").asText());
      columns.add(column);
      types.add(column.type());
      names.add(field.get("name").asText());
    }
    Type type = Types.buildGroup(repetition).addFields(types.toArray(new Type[0])).named(name);
    ValueWriter writer = (parent, index, value) -> {
      Group struct = parent.addGroup(index);
      for (int i = 0; i < columns.size(); i++) {
        JsonNode child = value.get(names.get(i));
        if (child != null && !child.isNull()) {
          columns.get(i).writer().write(struct, i, child);
        }
      }
    };
    return new Column(type, writer);
  }

  private static Column variant(String name, Repetition repetition) {
    Type type = Types.buildGroup(repetition).as(LogicalTypeAnnotation.variantType(VARIANT_SPEC_VERSION))
        .required(PrimitiveTypeName.BINARY).named("metadata")
        .required(PrimitiveTypeName.BINARY).named("value")
        .named(name);
    ValueWriter writer = (parent, index, value) -> {
      Group variant = parent.addGroup(index);
      variant.add(0, binary(value.get("metadata").asText()));
      variant.add(1, binary(value.get("value").asText()));
    };
    return new Column(type, writer);
  }

  private static Binary binary(String hex) {
    return Binary.fromConstantByteArray(CanonicalValues.fromHex(hex));
  }

  private static Column primitive(JsonNode type, String name, Repetition repetition) {
    String kind = type.get("kind").asText();
    PrimitiveTypeName physical = physical(type);
    Types.PrimitiveBuilder<org.apache.parquet.schema.PrimitiveType> builder = Types.primitive(physical, repetition);
    if (type.has("length")) {
      builder = builder.length(type.get("length").asInt());
    } else if (kind.equals("uuid")) {
      builder = builder.length(UUID_LENGTH);
    } else if (kind.equals("interval")) {
      builder = builder.length(INTERVAL_LENGTH);
    } else if (kind.equals("float") && type.get("bits").asInt() == 16) {
      builder = builder.length(FLOAT16_LENGTH);
    }
    LogicalTypeAnnotation annotation = annotation(type);
    if (annotation != null) {
      builder = builder.as(annotation);
    }
    return new Column(builder.named(name), scalarWriter(type, physical));
  }

  /** The physical type: the canonical type's `physical`, else the one its kind implies. */
  private static PrimitiveTypeName physical(JsonNode type) {
    if (type.hasNonNull("physical")) {
      String physical = type.get("physical").asText();
      return physical.equals("BYTE_ARRAY") ? PrimitiveTypeName.BINARY : PrimitiveTypeName.valueOf(physical);
    }
    switch (type.get("kind").asText()) {
      case "boolean": return PrimitiveTypeName.BOOLEAN;
      case "int": return type.get("bits").asInt() == 64 ? PrimitiveTypeName.INT64 : PrimitiveTypeName.INT32;
      case "int96": return PrimitiveTypeName.INT96;
      case "float":
        switch (type.get("bits").asInt()) {
          case 16: return PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
          case 32: return PrimitiveTypeName.FLOAT;
          default: return PrimitiveTypeName.DOUBLE;
        }
      case "date": return PrimitiveTypeName.INT32;
      case "time": return type.get("unit").asText().equals("ms") ? PrimitiveTypeName.INT32 : PrimitiveTypeName.INT64;
      case "timestamp": return PrimitiveTypeName.INT64;
      case "fixed": case "uuid": case "interval": return PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
      case "unknown": return PrimitiveTypeName.INT32;
      default: return PrimitiveTypeName.BINARY;
    }
  }

  private static TimeUnit unit(JsonNode type) {
    switch (type.get("unit").asText()) {
      case "ms": return TimeUnit.MILLIS;
      case "us": return TimeUnit.MICROS;
      default: return TimeUnit.NANOS;
    }
  }

  private static LogicalTypeAnnotation annotation(JsonNode type) {
    switch (type.get("kind").asText()) {
      case "int": {
        int bits = type.get("bits").asInt();
        boolean signed = type.get("signed").asBoolean();
        // A signed 32/64-bit int is the plain physical type (no annotation needed).
        return signed && (bits == 32 || bits == 64) ? null : LogicalTypeAnnotation.intType(bits, signed);
      }
      case "string": return LogicalTypeAnnotation.stringType();
      case "enum": return LogicalTypeAnnotation.enumType();
      case "json": return LogicalTypeAnnotation.jsonType();
      case "bson": return LogicalTypeAnnotation.bsonType();
      case "uuid": return LogicalTypeAnnotation.uuidType();
      case "float": return type.get("bits").asInt() == 16 ? LogicalTypeAnnotation.float16Type() : null;
      case "decimal":
        return LogicalTypeAnnotation.decimalType(type.get("scale").asInt(), type.get("precision").asInt());
      case "date": return LogicalTypeAnnotation.dateType();
      case "time": return LogicalTypeAnnotation.timeType(type.get("utc").asBoolean(), unit(type));
      case "timestamp": return LogicalTypeAnnotation.timestampType(type.get("utc").asBoolean(), unit(type));
      case "interval": return LogicalTypeAnnotation.intervalType();
      case "unknown": return LogicalTypeAnnotation.unknownType();
      case "geometry": return LogicalTypeAnnotation.geometryType(type.path("crs").textValue());
      case "geography": {
        String algorithm = type.path("algorithm").textValue();
        return LogicalTypeAnnotation.geographyType(type.path("crs").textValue(),
            algorithm == null ? null : EdgeInterpolationAlgorithm.valueOf(algorithm));
      }
      default: return null;
    }
  }

  private static ValueWriter scalarWriter(JsonNode type, PrimitiveTypeName physical) {
    String kind = type.get("kind").asText();
    switch (kind) {
      case "boolean":
        return (g, i, v) -> g.add(i, v.asBoolean());
      case "int": case "date": case "time": case "timestamp":
        // 64-bit values are decimal strings; an unsigned 64-bit one is stored as its low
        // 64 bits (BigInteger.longValue); 32-bit ones likewise (an unsigned 32-bit value as int).
        return physical == PrimitiveTypeName.INT64
            ? (g, i, v) -> g.add(i, new BigInteger(v.asText()).longValue())
            : (g, i, v) -> g.add(i, (int) v.asLong());
      case "int96":
        return (g, i, v) -> g.add(i, CanonicalValues.int96(v.asText()));
      case "float":
        return floatWriter(type.get("bits").asInt());
      case "decimal":
        return decimalWriter(type.get("scale").asInt(), physical, type.path("length").asInt(0));
      case "string": case "enum": case "json":
        return (g, i, v) -> g.add(i, Binary.fromString(v.asText()));
      case "uuid":
        return (g, i, v) -> g.add(i, Binary.fromConstantByteArray(CanonicalValues.uuidBytes(v.asText())));
      case "interval":
        return (g, i, v) -> g.add(i, Binary.fromConstantByteArray(CanonicalValues.intervalBytes(
            new long[] {v.get(0).asLong(), v.get(1).asLong(), v.get(2).asLong()})));
      case "unknown":
        return (g, i, v) -> {
          throw new IllegalArgumentException("an UNKNOWN column holds only nulls");
        };
      default: // binary, bson, fixed, geometry, geography: hex bytes
        return (g, i, v) -> g.add(i, binary(v.asText()));
    }
  }

  private static ValueWriter floatWriter(int bits) {
    switch (bits) {
      case 16:
        return (g, i, v) -> g.add(i, Binary.fromConstantByteArray(
            CanonicalValues.narrowHalf(CanonicalValues.parseDouble(v.asText()))));
      case 32:
        return (g, i, v) -> g.add(i, CanonicalValues.narrowFloat(CanonicalValues.parseDouble(v.asText())));
      default:
        return (g, i, v) -> g.add(i, CanonicalValues.parseDouble(v.asText()));
    }
  }

  private static ValueWriter decimalWriter(int scale, PrimitiveTypeName physical, int length) {
    switch (physical) {
      case INT32:
        return (g, i, v) -> g.add(i, CanonicalValues.unscaled(v.asText(), scale).intValueExact());
      case INT64:
        return (g, i, v) -> g.add(i, CanonicalValues.unscaled(v.asText(), scale).longValueExact());
      default: // BYTE_ARRAY (minimal bytes) or FIXED_LEN_BYTE_ARRAY(length)
        return (g, i, v) -> g.add(i, Binary.fromConstantByteArray(
            CanonicalValues.twosComplement(CanonicalValues.unscaled(v.asText(), scale), length)));
    }
  }
}
