/*
 * parquet-java's MessageType -> the canonical schema, and each Group record -> a
 * canonical row.
 *
 * GroupReadSupport hands back the file's own schema and Groups that mirror it field for
 * field, so this is where LIST and MAP layouts are recognised, with the rules of
 * LogicalTypes.md ('Lists', 'Maps', and their 'Backward-compatibility rules'):
 * parquet-java's Group API has no list or map values of its own.
 */
package columnar.conformance.adapters.parquetjava;

import columnar.conformance.adapters.parquetjava.Adapter.LossyConversion;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.GeographyLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.GeometryLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

final class ReadSchema {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String DEFAULT_CRS = "OGC:CRS84"; // canonical: an absent crs
  private static final String DEFAULT_ALGORITHM = "SPHERICAL"; // canonical: an absent algorithm
  private static final byte[] VARIANT_NULL = {0};
  private static final long UINT32_MASK = 0xffffffffL;

  /** Reads the value at repetition `index` of field `field` in `parent` (present). */
  interface ValueReader {
    JsonNode read(Group parent, int field, int index);
  }

  /** A canonical field and the reader of its values; `repeated` marks an unannotated
   * repeated field, a list whose absence is the empty list. */
  record Column(ObjectNode field, ValueReader reader, boolean repeated) {
    JsonNode valueIn(Group parent, int fieldIndex) {
      int count = parent.getFieldRepetitionCount(fieldIndex);
      if (repeated) {
        ArrayNode items = NODES.arrayNode();
        for (int j = 0; j < count; j++) {
          items.add(reader.read(parent, fieldIndex, j));
        }
        return items;
      }
      return count == 0 ? NODES.nullNode() : reader.read(parent, fieldIndex, 0);
    }
  }

  final ArrayNode schema = NODES.arrayNode();
  private final List<Column> columns = new ArrayList<>();

  ReadSchema(MessageType message) {
    for (Type field : message.getFields()) {
      Column column = column(field);
      schema.add(column.field());
      columns.add(column);
    }
  }

  ArrayNode row(Group record) {
    ArrayNode row = NODES.arrayNode();
    for (int i = 0; i < columns.size(); i++) {
      row.add(columns.get(i).valueIn(record, i));
    }
    return row;
  }

  private static ObjectNode field(String name, boolean nullable, JsonNode type) {
    ObjectNode field = NODES.objectNode();
    field.put("name", name).put("nullable", nullable).set("type", type);
    return field;
  }

  /** A field of a group: a repeated one outside a LIST / MAP is a list of required
   * elements (LogicalTypes.md, 'Nested Types'). */
  static Column column(Type type) {
    if (type.isRepetition(Type.Repetition.REPEATED)) {
      Column element = element(type, type.getName(), false);
      ObjectNode listType = NODES.objectNode().put("kind", "list");
      listType.set("element", element.field());
      return new Column(field(type.getName(), false, listType), element.reader(), true);
    }
    return element(type, type.getName(), type.isRepetition(Type.Repetition.OPTIONAL));
  }

  /** `type` read as a single (non-repeated) value named `name`. */
  private static Column element(Type type, String name, boolean nullable) {
    if (type.isPrimitive()) {
      PrimitiveType primitive = type.asPrimitiveType();
      return new Column(field(name, nullable, primitiveType(primitive)), scalarReader(primitive), false);
    }
    GroupType group = type.asGroupType();
    LogicalTypeAnnotation annotation = group.getLogicalTypeAnnotation();
    if (annotation instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
      return list(group, name, nullable);
    }
    if (annotation instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
        || annotation == LogicalTypeAnnotation.MapKeyValueTypeAnnotation.getInstance()) {
      return map(group, name, nullable);
    }
    if (annotation instanceof LogicalTypeAnnotation.VariantLogicalTypeAnnotation) {
      return variant(group, name, nullable);
    }
    return struct(group, name, nullable);
  }

  /** LIST: the standard 3-level layout, or a legacy 2-level one by the
   * backward-compatibility rules (the repeated field itself is then the element). */
  private static Column list(GroupType list, String name, boolean nullable) {
    if (list.getFieldCount() != 1 || !list.getType(0).isRepetition(Type.Repetition.REPEATED)) {
      throw new LossyConversion("LIST group " + name + " does not hold exactly one repeated field: " + list);
    }
    Type repeated = list.getType(0);
    boolean twoLevel = repeated.isPrimitive() || repeated.asGroupType().getFieldCount() != 1
        || repeated.getName().equals("array") || repeated.getName().equals(name + "_tuple");
    ObjectNode listType = NODES.objectNode().put("kind", "list");
    ValueReader reader;
    if (twoLevel) {
      Column element = element(repeated, repeated.getName(), false);
      listType.set("element", element.field());
      reader = (parent, field, index) -> {
        Group group = parent.getGroup(field, index);
        ArrayNode items = NODES.arrayNode();
        for (int j = 0; j < group.getFieldRepetitionCount(0); j++) {
          items.add(element.reader().read(group, 0, j));
        }
        return items;
      };
    } else {
      Column element = column(repeated.asGroupType().getType(0));
      listType.set("element", element.field());
      reader = (parent, field, index) -> {
        Group group = parent.getGroup(field, index);
        ArrayNode items = NODES.arrayNode();
        for (int j = 0; j < group.getFieldRepetitionCount(0); j++) {
          items.add(element.valueIn(group.getGroup(0, j), 0));
        }
        return items;
      };
    }
    return new Column(field(name, nullable, listType), reader, false);
  }

  /** MAP (and the legacy MAP_KEY_VALUE): one repeated group of a key and a value. */
  private static Column map(GroupType map, String name, boolean nullable) {
    if (map.getFieldCount() != 1 || map.getType(0).isPrimitive()
        || map.getType(0).asGroupType().getFieldCount() != 2) {
      throw new LossyConversion("MAP group " + name + " is not one repeated group of key and value: " + map);
    }
    GroupType keyValue = map.getType(0).asGroupType();
    Column key = column(keyValue.getType(0));
    Column value = column(keyValue.getType(1));
    ObjectNode mapType = NODES.objectNode().put("kind", "map");
    mapType.set("key", key.field());
    mapType.set("value", value.field());
    ValueReader reader = (parent, field, index) -> {
      Group group = parent.getGroup(field, index);
      ArrayNode pairs = NODES.arrayNode();
      for (int j = 0; j < group.getFieldRepetitionCount(0); j++) {
        Group entry = group.getGroup(0, j);
        pairs.add(NODES.arrayNode().add(key.valueIn(entry, 0)).add(value.valueIn(entry, 1)));
      }
      return pairs;
    };
    return new Column(field(name, nullable, mapType), reader, false);
  }

  private static Column struct(GroupType struct, String name, boolean nullable) {
    List<Column> children = new ArrayList<>();
    ArrayNode fields = NODES.arrayNode();
    for (Type child : struct.getFields()) {
      Column column = column(child);
      children.add(column);
      fields.add(column.field());
    }
    ObjectNode structType = NODES.objectNode().put("kind", "struct");
    structType.set("fields", fields);
    ValueReader reader = (parent, field, index) -> {
      Group group = parent.getGroup(field, index);
      ObjectNode value = NODES.objectNode();
      for (int i = 0; i < children.size(); i++) {
        value.set(struct.getFieldName(i), children.get(i).valueIn(group, i));
      }
      return value;
    };
    return new Column(field(name, nullable, structType), reader, false);
  }

  /** VARIANT, unshredded: the metadata and value binaries as stored. A shredded one
   * (`typed_value`) is refused: the Group API returns its shredded columns as stored and
   * parquet-java 1.17's jars hold no code reassembling them. */
  private static Column variant(GroupType variant, String name, boolean nullable) {
    if (variant.containsField("typed_value")) {
      throw new LossyConversion("VARIANT " + name + " is shredded (typed_value): parquet-java's Group "
          + "API returns the shredded columns as stored, with no reassembled variant value");
    }
    int metadata = variant.getFieldIndex("metadata");
    int value = variant.getFieldIndex("value");
    ValueReader reader = (parent, field, index) -> {
      Group group = parent.getGroup(field, index);
      byte[] bytes = group.getFieldRepetitionCount(value) == 0 ? VARIANT_NULL
          : group.getBinary(value, 0).getBytes();
      ObjectNode out = NODES.objectNode();
      out.put("metadata", CanonicalValues.hex(group.getBinary(metadata, 0).getBytes()));
      return out.put("value", CanonicalValues.hex(bytes));
    };
    return new Column(field(name, nullable, NODES.objectNode().put("kind", "variant")), reader, false);
  }

  // ---- primitives -------------------------------------------------------------------

  private static String physicalName(PrimitiveTypeName name) {
    return name == PrimitiveTypeName.BINARY ? "BYTE_ARRAY" : name.name();
  }

  private static String unitName(LogicalTypeAnnotation.TimeUnit unit) {
    switch (unit) {
      case MILLIS: return "ms";
      case MICROS: return "us";
      default: return "ns";
    }
  }

  /** The canonical type of a primitive field (canonical-values.md, 'Types'). */
  static ObjectNode primitiveType(PrimitiveType primitive) {
    PrimitiveTypeName physical = primitive.getPrimitiveTypeName();
    LogicalTypeAnnotation annotation = primitive.getLogicalTypeAnnotation();
    ObjectNode type = NODES.objectNode();
    if (annotation instanceof IntLogicalTypeAnnotation) {
      IntLogicalTypeAnnotation integer = (IntLogicalTypeAnnotation) annotation;
      type.put("kind", "int").put("bits", integer.getBitWidth()).put("signed", integer.isSigned());
    } else if (annotation instanceof DecimalLogicalTypeAnnotation) {
      DecimalLogicalTypeAnnotation decimal = (DecimalLogicalTypeAnnotation) annotation;
      type.put("kind", "decimal").put("precision", decimal.getPrecision()).put("scale", decimal.getScale());
    } else if (annotation instanceof TimeLogicalTypeAnnotation) {
      TimeLogicalTypeAnnotation time = (TimeLogicalTypeAnnotation) annotation;
      type.put("kind", "time").put("unit", unitName(time.getUnit())).put("utc", time.isAdjustedToUTC());
    } else if (annotation instanceof TimestampLogicalTypeAnnotation) {
      TimestampLogicalTypeAnnotation time = (TimestampLogicalTypeAnnotation) annotation;
      type.put("kind", "timestamp").put("unit", unitName(time.getUnit())).put("utc", time.isAdjustedToUTC());
    } else if (annotation instanceof GeometryLogicalTypeAnnotation) {
      type.put("kind", "geometry");
      putUnlessDefault(type, "crs", ((GeometryLogicalTypeAnnotation) annotation).getCrs(), DEFAULT_CRS);
    } else if (annotation instanceof GeographyLogicalTypeAnnotation) {
      GeographyLogicalTypeAnnotation geography = (GeographyLogicalTypeAnnotation) annotation;
      type.put("kind", "geography");
      putUnlessDefault(type, "crs", geography.getCrs(), DEFAULT_CRS);
      putUnlessDefault(type, "algorithm",
          geography.getAlgorithm() == null ? null : geography.getAlgorithm().name(), DEFAULT_ALGORITHM);
    } else {
      type.put("kind", simpleKind(physical, annotation));
      if (physical == PrimitiveTypeName.INT32 || physical == PrimitiveTypeName.INT64) {
        if (type.get("kind").asText().equals("int")) {
          type.put("bits", physical == PrimitiveTypeName.INT32 ? 32 : 64).put("signed", true);
        }
      } else if (physical == PrimitiveTypeName.FLOAT || physical == PrimitiveTypeName.DOUBLE) {
        type.put("bits", physical == PrimitiveTypeName.FLOAT ? 32 : 64);
      } else if (type.get("kind").asText().equals("float")) {
        type.put("bits", 16);
      }
    }
    type.put("physical", physicalName(physical));
    if (physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
      type.put("length", primitive.getTypeLength());
    }
    return type;
  }

  private static void putUnlessDefault(ObjectNode type, String key, String value, String absent) {
    if (value != null && !value.equals(absent)) {
      type.put(key, value);
    }
  }

  /** The kinds that need no attributes beyond `physical` (and `bits` / `length`). */
  private static String simpleKind(PrimitiveTypeName physical, LogicalTypeAnnotation annotation) {
    if (annotation != null) {
      String kind = annotationKind(annotation);
      if (kind != null) {
        return kind;
      }
    }
    switch (physical) {
      case BOOLEAN: return "boolean";
      case INT32: case INT64: return "int";
      case INT96: return "int96";
      case FLOAT: case DOUBLE: return "float";
      case FIXED_LEN_BYTE_ARRAY: return "fixed";
      default: return "binary";
    }
  }

  private static String annotationKind(LogicalTypeAnnotation annotation) {
    if (annotation instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation) {
      return "string";
    } else if (annotation instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation) {
      return "enum";
    } else if (annotation instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
      return "json";
    } else if (annotation instanceof LogicalTypeAnnotation.BsonLogicalTypeAnnotation) {
      return "bson";
    } else if (annotation instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation) {
      return "uuid";
    } else if (annotation instanceof LogicalTypeAnnotation.Float16LogicalTypeAnnotation) {
      return "float";
    } else if (annotation instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
      return "date";
    } else if (annotation instanceof LogicalTypeAnnotation.IntervalLogicalTypeAnnotation) {
      return "interval";
    } else if (annotation instanceof LogicalTypeAnnotation.UnknownLogicalTypeAnnotation) {
      return "unknown";
    }
    return null;
  }

  /** The reader of one primitive field, by the canonical type it maps to. */
  static ValueReader scalarReader(PrimitiveType primitive) {
    ObjectNode type = primitiveType(primitive);
    PrimitiveTypeName physical = primitive.getPrimitiveTypeName();
    switch (type.get("kind").asText()) {
      case "boolean":
        return (g, f, i) -> NODES.booleanNode(g.getBoolean(f, i));
      case "int":
        return intReader(type.get("bits").asInt(), type.get("signed").asBoolean(), physical);
      case "date":
        return (g, f, i) -> NODES.numberNode(g.getInteger(f, i));
      case "time": case "timestamp":
        return physical == PrimitiveTypeName.INT32 ? (g, f, i) -> NODES.numberNode(g.getInteger(f, i))
            : (g, f, i) -> NODES.textNode(Long.toString(g.getLong(f, i)));
      case "int96":
        return (g, f, i) -> NODES.textNode(CanonicalValues.int96Nanos(g.getInt96(f, i)));
      case "float":
        return floatReader(physical);
      case "decimal":
        return decimalReader(type.get("scale").asInt(), type.get("precision").asInt(), physical);
      case "string": case "enum": case "json":
        return (g, f, i) -> NODES.textNode(g.getString(f, i));
      case "uuid":
        return (g, f, i) -> NODES.textNode(CanonicalValues.uuidText(g.getBinary(f, i).getBytes()));
      case "interval":
        return (g, f, i) -> {
          ArrayNode fields = NODES.arrayNode();
          for (long field : CanonicalValues.intervalFields(g.getBinary(f, i).getBytes())) {
            fields.add(field);
          }
          return fields;
        };
      case "unknown":
        return (g, f, i) -> {
          throw new LossyConversion("a value in an UNKNOWN (always null) column");
        };
      default: // binary, bson, fixed, geometry, geography
        return (g, f, i) -> NODES.textNode(CanonicalValues.hex(g.getBinary(f, i).getBytes()));
    }
  }

  private static ValueReader intReader(int bits, boolean signed, PrimitiveTypeName physical) {
    if (physical == PrimitiveTypeName.INT64) {
      return signed ? (g, f, i) -> NODES.textNode(Long.toString(g.getLong(f, i)))
          : (g, f, i) -> NODES.textNode(Long.toUnsignedString(g.getLong(f, i)));
    }
    long max = signed ? (1L << (bits - 1)) - 1 : (1L << bits) - 1;
    long min = signed ? -(1L << (bits - 1)) : 0;
    return (g, f, i) -> {
      int stored = g.getInteger(f, i);
      long value = signed ? stored : stored & UINT32_MASK;
      if (value < min || value > max) {
        throw new LossyConversion("INT(" + bits + ", " + signed + ") value " + value + " out of range");
      }
      return bits <= 32 ? NODES.numberNode(value) : NODES.textNode(Long.toString(value));
    };
  }

  private static ValueReader floatReader(PrimitiveTypeName physical) {
    switch (physical) {
      case FLOAT:
        return (g, f, i) -> NODES.textNode(CanonicalValues.formatDouble(CanonicalValues.widenFloat(g.getFloat(f, i))));
      case DOUBLE:
        return (g, f, i) -> NODES.textNode(CanonicalValues.formatDouble(g.getDouble(f, i)));
      default: // FLOAT16 on FIXED_LEN_BYTE_ARRAY(2)
        return (g, f, i) -> NODES.textNode(CanonicalValues.formatDouble(
            CanonicalValues.widenHalf(g.getBinary(f, i).getBytes())));
    }
  }

  private static ValueReader decimalReader(int scale, int precision, PrimitiveTypeName physical) {
    BigInteger bound = BigInteger.TEN.pow(precision);
    return (g, f, i) -> {
      BigInteger unscaled = unscaledDecimal(g, f, i, physical);
      if (unscaled.abs().compareTo(bound) >= 0) {
        throw new LossyConversion("DECIMAL(" + precision + ", " + scale + ") value with unscaled "
            + unscaled + ": more digits than its precision");
      }
      return NODES.textNode(CanonicalValues.formatDecimal(unscaled, scale));
    };
  }

  private static BigInteger unscaledDecimal(Group g, int f, int i, PrimitiveTypeName physical) {
    switch (physical) {
      case INT32: return BigInteger.valueOf(g.getInteger(f, i));
      case INT64: return BigInteger.valueOf(g.getLong(f, i));
      default: {
        byte[] bytes = g.getBinary(f, i).getBytes();
        if (bytes.length == 0) {
          throw new LossyConversion("DECIMAL value of zero bytes");
        }
        return new BigInteger(bytes);
      }
    }
  }
}
