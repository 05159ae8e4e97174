/*
 * Canonical rows -> orc-core's column vectors (hive-storage-api), one value at a time;
 * nested values append to their child vectors (ORCv1.md, 'Column Encodings': List, Map,
 * Struct and Union Columns). Dates and timestamps are given as proleptic Gregorian
 * counts (the vectors say so), and orc-core converts them to the file's calendar.
 */
package columnar.conformance.adapters.orcjava;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.TimeZone;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DateColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MapColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.StructColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.UnionColumnVector;

final class VectorWriting {
  /** The zone whose wall clocks a TIMESTAMP column's values are (the writer's zone). */
  private final TimeZone zone;

  VectorWriting(TimeZone zone) {
    this.zone = zone;
  }

  /** Mark every date and timestamp vector below `v` as holding proleptic Gregorian counts. */
  static void proleptic(ColumnVector v) {
    if (v instanceof DateColumnVector) {
      ((DateColumnVector) v).changeCalendar(true, false);
    } else if (v instanceof TimestampColumnVector) {
      ((TimestampColumnVector) v).changeCalendar(true, false);
    } else if (v instanceof StructColumnVector) {
      for (ColumnVector field : ((StructColumnVector) v).fields) {
        proleptic(field);
      }
    } else if (v instanceof UnionColumnVector) {
      for (ColumnVector field : ((UnionColumnVector) v).fields) {
        proleptic(field);
      }
    } else if (v instanceof ListColumnVector) {
      proleptic(((ListColumnVector) v).child);
    } else if (v instanceof MapColumnVector) {
      proleptic(((MapColumnVector) v).keys);
      proleptic(((MapColumnVector) v).values);
    }
  }

  /** Set row `row` of `v` (of canonical type `type`) to canonical value `value`. */
  void set(ColumnVector v, int row, JsonNode type, JsonNode value) {
    if (value == null || value.isNull()) {
      v.noNulls = false;
      v.isNull[row] = true;
      return;
    }
    v.isNull[row] = false;
    switch (type.get("kind").asText()) {
      case "boolean": ((LongColumnVector) v).vector[row] = value.asBoolean() ? 1 : 0; return;
      case "int": ((LongColumnVector) v).vector[row] = Long.parseLong(value.asText()); return;
      case "date": ((LongColumnVector) v).vector[row] = value.asLong(); return;
      case "float": ((DoubleColumnVector) v).vector[row] = CanonicalValues.parseDouble(value.asText()); return;
      case "string":
      case "char":
      case "varchar":
        ((BytesColumnVector) v).setVal(row, value.asText().getBytes(StandardCharsets.UTF_8));
        return;
      case "binary":
      case "geometry":
      case "geography":
        ((BytesColumnVector) v).setVal(row, CanonicalValues.fromHex(value.asText()));
        return;
      case "decimal":
        ((DecimalColumnVector) v).set(row, HiveDecimal.create(new BigDecimal(value.asText())));
        return;
      case "timestamp": setTimestamp((TimestampColumnVector) v, row, type.get("utc").asBoolean(), value.asText()); return;
      case "list": setList((ListColumnVector) v, row, type.get("element").get("type"), value); return;
      case "map": setMap((MapColumnVector) v, row, type, value); return;
      case "struct": setStruct((StructColumnVector) v, row, type.get("fields"), value); return;
      case "union": setUnion((UnionColumnVector) v, row, type.get("fields"), value); return;
      default: throw new IllegalArgumentException("no ORC vector for canonical kind " + type.get("kind"));
    }
  }

  /** A TIMESTAMP_INSTANT is its instant; a TIMESTAMP's wall clock is given as the instant
   * it is in the writer's zone, which orc-core turns back into that zone's wall clock. */
  private void setTimestamp(TimestampColumnVector v, int row, boolean instant, String count) {
    long[] secondsAndNanos = CanonicalValues.secondsAndNanos(count);
    long nanos = secondsAndNanos[1];
    long millis = Math.addExact(Math.multiplyExact(secondsAndNanos[0], CanonicalValues.MILLIS_PER_SECOND),
        nanos / CanonicalValues.NANOS_PER_MILLI);
    v.time[row] = instant ? millis : CanonicalValues.wallClockInstant(millis, zone);
    v.nanos[row] = (int) nanos;
  }

  private void setList(ListColumnVector v, int row, JsonNode elementType, JsonNode elements) {
    int offset = appended(v.childCount, elements.size(), v.child);
    v.offsets[row] = offset;
    v.lengths[row] = elements.size();
    v.childCount = offset + elements.size();
    for (int i = 0; i < elements.size(); i++) {
      set(v.child, offset + i, elementType, elements.get(i));
    }
  }

  private void setMap(MapColumnVector v, int row, JsonNode type, JsonNode entries) {
    int offset = appended(v.childCount, entries.size(), v.keys, v.values);
    v.offsets[row] = offset;
    v.lengths[row] = entries.size();
    v.childCount = offset + entries.size();
    for (int i = 0; i < entries.size(); i++) {
      set(v.keys, offset + i, type.get("key").get("type"), entries.get(i).get(0));
      set(v.values, offset + i, type.get("value").get("type"), entries.get(i).get(1));
    }
  }

  /** Grow `children` for `count` more values after the first `used`; the first index. */
  private static int appended(int used, int count, ColumnVector... children) {
    for (ColumnVector child : children) {
      child.ensureSize(used + count, true);
    }
    return used;
  }

  private void setStruct(StructColumnVector v, int row, JsonNode fields, JsonNode value) {
    for (int i = 0; i < fields.size(); i++) {
      JsonNode field = fields.get(i);
      set(v.fields[i], row, field.get("type"), value.get(field.get("name").asText()));
    }
  }

  private void setUnion(UnionColumnVector v, int row, JsonNode alternatives, JsonNode value) {
    int tag = value.get("tag").asInt();
    v.tags[row] = tag;
    set(v.fields[tag], row, alternatives.get(tag).get("type"), value.get("value"));
  }
}
