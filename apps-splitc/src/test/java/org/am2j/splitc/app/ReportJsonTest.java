package org.am2j.splitc.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The reports' JSON: the layout people read (and diff in {@code perf/results/}), numbers JSON cannot hold written
 * as null, and text read back as it was written.
 */
@Timeout(30)
class ReportJsonTest
{
    @Test
    void mapsAreWrittenInOrderIndentedAndEscaped()
    {
        final Map<String, Object> json = new LinkedHashMap<>();
        json.put("verified", true);
        json.put("name", "a \"b\"\n\tc\u0001 \\ é 日本");
        json.put("n", 3L);
        json.put("x", 0.5);
        json.put("whole", 2.0);
        json.put("nan", Double.NaN);
        final List<Object> list = new ArrayList<>(List.of(1, "two"));
        list.add(null);
        json.put("list", list);
        json.put("empty", Map.of());
        json.put("none", List.of());
        json.put("nested", Map.of("load \"1m\"", 0.25));
        assertEquals("{\n  \"verified\": true,\n  \"name\": \"a \\\"b\\\"\\n\\tc\\u0001 \\\\ é 日本\",\n  \"n\": 3,\n" +
            "  \"x\": 0.5,\n  \"whole\": 2.0,\n  \"nan\": null,\n  \"list\": [\n    1,\n    \"two\",\n    null\n  ],\n" +
            "  \"empty\": {},\n  \"none\": [],\n  \"nested\": {\n    \"load \\\"1m\\\"\": 0.25\n  }\n}\n",
            ReportJson.write(json));
        assertThrows(IllegalArgumentException.class, () -> ReportJson.write(Map.of("x", new Object())));
    }

    @Test
    void numbersJsonCannotHoldAreWrittenAsNullWhereverTheyAre()
    {
        final ObjectNode tree = ReportJson.object().put("nan", Double.NaN).put("inf", Double.POSITIVE_INFINITY)
            .put("float", Float.NEGATIVE_INFINITY).put("tenth", 0.1f).put("big", 1e20).put("min", Long.MIN_VALUE);
        tree.putArray("ratios").add(1.5).add(Double.NaN);
        assertEquals("{\n  \"nan\": null,\n  \"inf\": null,\n  \"float\": null,\n  \"tenth\": 0.1,\n" +
            "  \"big\": 1.0E20,\n  \"min\": -9223372036854775808,\n  \"ratios\": [\n    1.5,\n    null\n  ]\n}\n",
            ReportJson.write(tree));
        assertEquals("null\n", ReportJson.write(Double.NEGATIVE_INFINITY));
        record Ratio(String name, double value)
        {
        }
        assertEquals("{\n  \"name\": \"udp\",\n  \"value\": null\n}\n", ReportJson.write(new Ratio("udp", 0.0 / 0)));
    }

    @Test
    void readsWhatItWritesAsATreeInOrder()
    {
        final Map<String, Object> value = new LinkedHashMap<>();
        value.put("app", "em3d \"quoted\" \\ back\nline\ttab\u0001");
        value.put("ranks", 4);
        value.put("total_s", 0.874752968);
        value.put("tiny", 1.5e-12);
        value.put("negative", -3);
        value.put("nothing", null);
        value.put("list", List.of("inproc", "shm", List.of()));
        final JsonNode back = ReportJson.read(ReportJson.write(value));

        final List<String> names = new ArrayList<>();
        back.fieldNames().forEachRemaining(names::add);
        assertEquals(List.copyOf(value.keySet()), names, "members in order");
        assertEquals(value.get("app"), back.get("app").asText());
        assertTrue(back.get("ranks").isIntegralNumber());
        assertEquals(4, back.get("ranks").asInt());
        assertEquals(0.874752968, back.get("total_s").asDouble());
        assertEquals(1.5e-12, back.get("tiny").asDouble());
        assertEquals(-3, back.get("negative").asInt());
        assertTrue(back.get("nothing").isNull());
        assertEquals(3, back.get("list").size());
        assertEquals("a/b", ReportJson.read(" [ \"a\\/b\" ,\r\n\"\\u00e9\",false ] ").get(0).asText());
    }

    @Test
    void malformedTextIsRefusedSayingWhere()
    {
        for (final String bad : List.of("", "  ", "{", "{\"a\" 1}", "{\"a\":1,}", "[1 2]", "tru", "\"open", "{} x",
            "[-]", "\"\\q\"", "{1:2}"))
        {
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> ReportJson.read(bad), bad);
            assertTrue(refused.getMessage().startsWith("bad JSON: "), refused.getMessage());
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ReportJson.read("{\n  \"a\": tru\n}"))
            .getMessage().contains("line: 2"));
    }
}
