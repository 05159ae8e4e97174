/*
 * Canonical types (docs/canonical-values.md, 'Types' and 'ORC') <-> orc-core's
 * TypeDescription (ORCv1.md, 'Type Information'; orc_proto.proto Type.Kind). GEOMETRY and
 * GEOGRAPHY (ORCv2.md, 'Geometry & Geography Types') carry Type.crs and Type.algorithm.
 */
package columnar.conformance.adapters.orcjava;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.apache.orc.TypeDescription;
import org.apache.orc.TypeDescription.EdgeInterpolationAlgorithm;

final class Schemas {
  /** The name ORC Java and Hive give the one column of a file whose root is no STRUCT. */
  static final String ROOT_COLUMN = "_col0";
  static final String TIMESTAMP_UNIT = "ns";
  /** ORCv2.md, 'Coordinate Reference System': the CRS of a type that names none. */
  static final String DEFAULT_CRS = "OGC:CRS84";
  /** ORCv2.md, 'Edge Interpolation Algorithm': the algorithm of a GEOGRAPHY that names none. */
  static final EdgeInterpolationAlgorithm DEFAULT_ALGORITHM = EdgeInterpolationAlgorithm.SPHERICAL;

  private Schemas() {}

  // ---- canonical -> ORC -----------------------------------------------------------

  /** The root type of a case: a STRUCT of its columns, or the one column's type itself
   * for a bare-root case (OrcWriteOptions.bare_root). */
  static TypeDescription root(JsonNode schema, boolean bareRoot) {
    if (bareRoot) {
      return orcType(schema.get(0).get("type"));
    }
    TypeDescription struct = TypeDescription.createStruct();
    for (JsonNode field : schema) {
      struct.addField(field.get("name").asText(), orcType(field.get("type")));
    }
    return struct;
  }

  static TypeDescription orcType(JsonNode t) {
    String kind = t.get("kind").asText();
    switch (kind) {
      case "boolean": return TypeDescription.createBoolean();
      case "int": return integer(t.get("bits").asInt());
      case "float": return t.get("bits").asInt() == 32 ? TypeDescription.createFloat() : TypeDescription.createDouble();
      case "string": return TypeDescription.createString();
      case "binary": return TypeDescription.createBinary();
      case "char": return TypeDescription.createChar().withMaxLength(t.get("length").asInt());
      case "varchar": return TypeDescription.createVarchar().withMaxLength(t.get("length").asInt());
      case "decimal":
        return TypeDescription.createDecimal().withPrecision(t.get("precision").asInt())
            .withScale(t.get("scale").asInt());
      case "date": return TypeDescription.createDate();
      case "timestamp":
        return t.get("utc").asBoolean() ? TypeDescription.createTimestampInstant() : TypeDescription.createTimestamp();
      case "list": return TypeDescription.createList(orcType(t.get("element").get("type")));
      case "map":
        return TypeDescription.createMap(orcType(t.get("key").get("type")), orcType(t.get("value").get("type")));
      case "struct":
        return root(t.get("fields"), false);
      case "geometry": return withCrs(TypeDescription.createGeometry(), t);
      case "geography": return geography(t);
      case "union":
        TypeDescription union = TypeDescription.createUnion();
        for (JsonNode alternative : t.get("fields")) {
          union.addUnionChild(orcType(alternative.get("type")));
        }
        return union;
      default:
        throw new IllegalArgumentException("ORC has no type for canonical kind " + kind);
    }
  }

  /** `orcType` with the canonical type's `crs`, if it names one (orc-core's own default is
   * DEFAULT_CRS, which orc-core writes out as Type.crs). */
  private static TypeDescription withCrs(TypeDescription orcType, JsonNode t) {
    JsonNode crs = t.get("crs");
    return crs == null || crs.isNull() ? orcType : orcType.withCRS(crs.asText());
  }

  private static TypeDescription geography(JsonNode t) {
    TypeDescription geography = withCrs(TypeDescription.createGeography(), t);
    JsonNode algorithm = t.get("algorithm");
    return algorithm == null || algorithm.isNull() ? geography
        : geography.withEdgeInterpolationAlgorithm(EdgeInterpolationAlgorithm.valueOf(algorithm.asText()));
  }

  private static TypeDescription integer(int bits) {
    switch (bits) {
      case 8: return TypeDescription.createByte();
      case 16: return TypeDescription.createShort();
      case 32: return TypeDescription.createInt();
      case 64: return TypeDescription.createLong();
      default: throw new IllegalArgumentException("ORC has no " + bits + "-bit integer");
    }
  }

  // ---- ORC -> canonical -----------------------------------------------------------

  /** The canonical schema of a file whose root type is `root`. */
  static ArrayNode schema(TypeDescription root) {
    ArrayNode fields = Adapter.JSON.createArrayNode();
    if (root.getCategory() != TypeDescription.Category.STRUCT) {
      fields.add(field(ROOT_COLUMN, root, true));
      return fields;
    }
    List<String> names = root.getFieldNames();
    for (int i = 0; i < names.size(); i++) {
      fields.add(field(names.get(i), root.getChildren().get(i), true));
    }
    return fields;
  }

  static ObjectNode field(String name, TypeDescription t, boolean nullable) {
    ObjectNode field = Adapter.JSON.createObjectNode().put("name", name).put("nullable", nullable);
    field.set("type", canonicalType(t));
    return field;
  }

  static ObjectNode canonicalType(TypeDescription t) {
    ObjectNode type = Adapter.JSON.createObjectNode();
    switch (t.getCategory()) {
      case BOOLEAN: return type.put("kind", "boolean");
      case BYTE: return type.put("kind", "int").put("bits", 8).put("signed", true);
      case SHORT: return type.put("kind", "int").put("bits", 16).put("signed", true);
      case INT: return type.put("kind", "int").put("bits", 32).put("signed", true);
      case LONG: return type.put("kind", "int").put("bits", 64).put("signed", true);
      case FLOAT: return type.put("kind", "float").put("bits", 32);
      case DOUBLE: return type.put("kind", "float").put("bits", 64);
      case STRING: return type.put("kind", "string");
      case BINARY: return type.put("kind", "binary");
      case CHAR: return type.put("kind", "char").put("length", t.getMaxLength());
      case VARCHAR: return type.put("kind", "varchar").put("length", t.getMaxLength());
      case DECIMAL: return type.put("kind", "decimal").put("precision", t.getPrecision()).put("scale", t.getScale());
      case DATE: return type.put("kind", "date");
      case TIMESTAMP: return type.put("kind", "timestamp").put("unit", TIMESTAMP_UNIT).put("utc", false);
      case TIMESTAMP_INSTANT: return type.put("kind", "timestamp").put("unit", TIMESTAMP_UNIT).put("utc", true);
      case LIST:
        type.put("kind", "list").set("element", field("element", t.getChildren().get(0), true));
        return type;
      case MAP:
        type.put("kind", "map").set("key", field("key", t.getChildren().get(0), false));
        type.set("value", field("value", t.getChildren().get(1), true));
        return type;
      case STRUCT:
        type.put("kind", "struct").set("fields", schema(t));
        return type;
      case Geometry: return geospatial(type.put("kind", "geometry"), t);
      case Geography:
        geospatial(type.put("kind", "geography"), t);
        return t.getEdgeInterpolationAlgorithm() == DEFAULT_ALGORITHM ? type
            : type.put("algorithm", t.getEdgeInterpolationAlgorithm().name());
      case UNION:
        ArrayNode alternatives = type.put("kind", "union").putArray("fields");
        for (int tag = 0; tag < t.getChildren().size(); tag++) {
          alternatives.add(field(Integer.toString(tag), t.getChildren().get(tag), true));
        }
        return type;
      default:
        throw new Adapter.LossyConversion("ORC type " + t + " has no canonical form");
    }
  }

  /** `type` with `t`'s CRS. orc-core's reader gives DEFAULT_CRS (and DEFAULT_ALGORITHM) for a
   * Type that names none, so the defaults are absent in canonical form, as the reference
   * reads an absent Type.crs (docs/canonical-values.md, 'ORC'). */
  private static ObjectNode geospatial(ObjectNode type, TypeDescription t) {
    return DEFAULT_CRS.equals(t.getCrs()) ? type : type.put("crs", t.getCrs());
  }
}
