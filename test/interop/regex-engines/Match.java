// Java's reading of the contract's patterns (java.util.regex, as Specmatic and the JVM's OpenAPI
// validators compile them), run as a source file (`java Match.java`). Reads on stdin the count of
// patterns, each pattern as a line of Base64 (UTF-8), then the count of strings and each string
// the same way; writes a line per pattern: `E` and its compile error, or `V` and a 1 or 0 per
// string for whether find() matches it.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

public class Match {
  private static List<String> readList(BufferedReader in) throws Exception {
    int count = Integer.parseInt(in.readLine().trim());
    List<String> items = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      items.add(new String(Base64.getDecoder().decode(in.readLine().trim()), StandardCharsets.UTF_8));
    }
    return items;
  }

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    List<String> patterns = readList(in);
    List<String> strings = readList(in);
    StringBuilder out = new StringBuilder();
    for (String source : patterns) {
      Pattern pattern;
      try {
        pattern = Pattern.compile(source);
      } catch (PatternSyntaxException error) {
        out.append("E ").append(error.getDescription()).append('\n');
        continue;
      }
      out.append("V ");
      for (String text : strings) out.append(pattern.matcher(text).find() ? '1' : '0');
      out.append('\n');
    }
    System.out.print(out);
  }
}
