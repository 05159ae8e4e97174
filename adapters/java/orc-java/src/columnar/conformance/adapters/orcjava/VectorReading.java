/*
 * orc-core's column vectors -> canonical JSON values (docs/canonical-values.md, 'Values'
 * and 'ORC'), following the file's own TypeDescription. The reader runs with
 * useUTCTimestamp (a TIMESTAMP's vector holds its wall clock as if UTC) and
 * convertToProlepticGregorian (dates and timestamps are proleptic counts).
 */
package columnar.conformance.adapters.orcjava;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MapColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.StructColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.UnionColumnVector;
import org.apache.orc.TypeDescription;

final class VectorReading {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private VectorReading() {}

  /** The canonical value of row `row` of `v`, a vector of ORC type `t`. */
  static JsonNode value(ColumnVector v, int row, TypeDescription t) {
    int i = v.isRepeating ? 0 : row;
    if (!v.noNulls && v.isNull[i]) {
      return NODES.nullNode();
    }
    switch (t.getCategory()) {
      case BOOLEAN: return NODES.booleanNode(((LongColumnVector) v).vector[i] != 0);
      case BYTE:
      case SHORT:
      case INT:
      case DATE:
        return NODES.numberNode(Math.toIntExact(((LongColumnVector) v).vector[i]));
      case LONG: return NODES.textNode(Long.toString(((LongColumnVector) v).vector[i]));
      case FLOAT:
      case DOUBLE:
        return NODES.textNode(CanonicalValues.formatDouble(((DoubleColumnVector) v).vector[i]));
      case STRING:
      case CHAR:
      case VARCHAR:
        return NODES.textNode(text((BytesColumnVector) v, i));
      case BINARY:
      case Geometry:
      case Geography: {
        BytesColumnVector bytes = (BytesColumnVector) v;
        return NODES.textNode(CanonicalValues.hex(bytes.vector[i], bytes.start[i], bytes.length[i]));
      }
      case DECIMAL:
        return NODES.textNode(CanonicalValues.formatDecimal(
            ((DecimalColumnVector) v).vector[i].getHiveDecimal().bigDecimalValue(), t.getScale()));
      case TIMESTAMP:
      case TIMESTAMP_INSTANT: {
        TimestampColumnVector ts = (TimestampColumnVector) v;
        long seconds = Math.floorDiv(ts.time[i], CanonicalValues.MILLIS_PER_SECOND);
        return NODES.textNode(CanonicalValues.count(seconds, ts.nanos[i]));
      }
      case LIST: return list((ListColumnVector) v, i, t.getChildren().get(0));
      case MAP: return map((MapColumnVector) v, i, t);
      case STRUCT: return struct((StructColumnVector) v, i, t);
      case UNION: {
        UnionColumnVector union = (UnionColumnVector) v;
        int tag = union.tags[i];
        ObjectNode tagged = NODES.objectNode().put("tag", tag);
        tagged.set("value", value(union.fields[tag], i, t.getChildren().get(tag)));
        return tagged;
      }
      default:
        throw new Adapter.LossyConversion("ORC type " + t + " has no canonical form");
    }
  }

  private static String text(BytesColumnVector v, int i) {
    return new String(v.vector[i], v.start[i], v.length[i], StandardCharsets.UTF_8);
  }

  private static ArrayNode list(ListColumnVector v, int i, TypeDescription element) {
    ArrayNode elements = NODES.arrayNode();
    for (long k = v.offsets[i]; k < v.offsets[i] + v.lengths[i]; k++) {
      elements.add(value(v.child, (int) k, element));
    }
    return elements;
  }

  private static ArrayNode map(MapColumnVector v, int i, TypeDescription t) {
    ArrayNode entries = NODES.arrayNode();
    for (long k = v.offsets[i]; k < v.offsets[i] + v.lengths[i]; k++) {
      entries.addArray().add(value(v.keys, (int) k, t.getChildren().get(0)))
          .add(value(v.values, (int) k, t.getChildren().get(1)));
    }
    return entries;
  }

  private static ObjectNode struct(StructColumnVector v, int i, TypeDescription t) {
    ObjectNode fields = NODES.objectNode();
    List<String> names = t.getFieldNames();
    for (int f = 0; f < names.size(); f++) {
      fields.set(names.get(f), value(v.fields[f], i, t.getChildren().get(f)));
    }
    return fields;
  }
}
