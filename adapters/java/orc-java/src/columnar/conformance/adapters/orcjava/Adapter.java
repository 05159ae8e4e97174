/*
 * The ORC Java adapter of columnar-conformance: orc-core's Writer and Reader (the Apache
 * ORC Java library itself, not Spark's DataFrame writer) behind the engine protocol
 * (docs/engine-protocol.md): one JSON request per line on stdin, one JSON response per
 * line on stdout, logs on stderr.
 *
 *   java -cp <classes>:<pyspark>/jars/* columnar.conformance.adapters.orcjava.Adapter
 */
package columnar.conformance.adapters.orcjava;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.TimeZone;

public final class Adapter {
  static final ObjectMapper JSON = new ObjectMapper();
  static final int PROTOCOL_VERSION = 1;
  static final String UTC = "UTC";

  private Adapter() {}

  public static void main(String[] args) throws IOException {
    // The real stdout carries responses only: keep a private stream on it, and send
    // whatever a library prints there (log4j's console appender, Hadoop) to stderr.
    PrintStream responses = new PrintStream(new FileOutputStream(FileDescriptor.out), false,
        StandardCharsets.UTF_8);
    System.setOut(System.err);
    System.setProperty("log4j2.level", "ERROR");
    // ORC Java writes the JVM's default zone as StripeFooter.writerTimezone: UTC unless a
    // case names one (FileWriting), whatever the machine's zone.
    TimeZone.setDefault(TimeZone.getTimeZone(UTC));
    BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = requests.readLine(); line != null; line = requests.readLine()) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode request = JSON.readTree(line);
      String op = request.path("op").asText();
      responses.println(JSON.writeValueAsString(answer(op, request)));
      responses.flush();
      if (op.equals("stop")) {
        return;
      }
    }
  }

  /** The response to one request; an engine failure becomes an `error` answer. */
  static JsonNode answer(String op, JsonNode request) {
    try {
      switch (op) {
        case "start":
          return Capabilities.startAnswer();
        case "write":
          FileWriting.write(request.get("case"), request.get("path").asText(), request.path("keys"));
          return JSON.createObjectNode().put("ok", true);
        case "read":
          return JSON.createObjectNode().set("document", FileReading.read(request.get("file").asText(), request.path("keys")));
        case "stop":
          return JSON.createObjectNode().put("ok", true);
        default:
          throw new IllegalArgumentException("unknown op " + op);
      }
    } catch (Unsupported e) {
      return JSON.createObjectNode().put("unsupported", e.getMessage());
    } catch (Exception | LinkageError | OutOfMemoryError e) {
      e.printStackTrace(System.err); // the evidence of the cell (the harness keeps stderr's tail)
      return error(e);
    }
  }

  /** `{"error": {"class", "message"}}`: the exception's simple class name, and its message
   * followed by its causes' (orc-core often wraps the telling error). */
  static ObjectNode error(Throwable e) {
    StringBuilder message = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
      message.append("; caused by ").append(cause.getClass().getSimpleName()).append(": ")
          .append(cause.getMessage());
    }
    ObjectNode error = JSON.createObjectNode();
    error.put("class", e.getClass().getSimpleName()).put("message", message.toString());
    return JSON.createObjectNode().set("error", error);
  }

  /** A write option orc-core cannot honour: an `unsupported` answer with the measured
   * reason (docs/engine-protocol.md, 'write'), not an error. */
  static final class Unsupported extends RuntimeException {
    Unsupported(String reason) {
      super(reason);
    }
  }

  /** A value orc-core returned that the canonical model cannot hold without loss. */
  static final class LossyConversion extends RuntimeException {
    LossyConversion(String message) {
      super(message);
    }
  }
}
