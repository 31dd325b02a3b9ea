package org.am2j.perf.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.am2j.splitc.app.ReportJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class JsonReaderTest
{
    @Test
    void readsWhatTheApplicationsWrite()
    {
        final Map<String, Object> value = new LinkedHashMap<>();
        value.put("app", "em3d \"quoted\" \\ back\nline\ttab\u0001");
        value.put("ranks", 4);
        value.put("total_s", 0.874752968);
        value.put("tiny", 1.5e-12);
        value.put("whole", 100.0);
        value.put("negative", -3);
        value.put("verified", true);
        value.put("nothing", null);
        value.put("empty", new LinkedHashMap<>());
        value.put("list", List.of("inproc", "shm", List.of()));
        final Map<String, Object> back = JsonReader.readObject(ReportJson.write(value));

        assertEquals(List.copyOf(value.keySet()), List.copyOf(back.keySet()), "keys in order");
        assertEquals(value.get("app"), back.get("app"));
        assertEquals(4.0, back.get("ranks"));
        assertEquals(0.874752968, back.get("total_s"));
        assertEquals(1.5e-12, back.get("tiny"));
        assertEquals(100.0, back.get("whole"));
        assertEquals(-3.0, back.get("negative"));
        assertEquals(Boolean.TRUE, back.get("verified"));
        assertNull(back.get("nothing"));
        assertEquals(Map.of(), back.get("empty"));
        assertEquals(List.of("inproc", "shm", List.of()), back.get("list"));
    }

    @Test
    void readsEscapesAndWhiteSpace()
    {
        assertEquals(List.of("a/b", "\u00e9", false), JsonReader.read(" [ \"a\\/b\" ,\r\n\"\\u00e9\",false ] "));
    }

    @Test
    void refusesMalformedText()
    {
        for (final String bad : List.of("", "{", "{\"a\" 1}", "{\"a\":1,}", "[1 2]", "tru", "\"open", "{} x", "[-]",
            "\"\\q\"", "{1:2}"))
        {
            assertThrows(IllegalArgumentException.class, () -> JsonReader.read(bad), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> JsonReader.readObject("[1]"));
    }
}
