package org.am2j.perf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(30)
class JsonWriterTest
{
    @Test
    void escapesQuotesBackslashesAndControlCharacters()
    {
        assertEquals("\"plain\"", JsonWriter.quoted("plain"));
        assertEquals("\"say \\\"hi\\\"\"", JsonWriter.quoted("say \"hi\""));
        assertEquals("\"C:\\\\tmp\"", JsonWriter.quoted("C:\\tmp"));
        assertEquals("\"a\\nb\\rc\\td\\be\\ff\"", JsonWriter.quoted("a\nb\rc\td\be\ff"));
        assertEquals("\"\\u0000\\u001f\\u007f\"", JsonWriter.quoted("\u0000\u001f\u007f"));
        assertEquals("\"\\u2028\\u2029\"", JsonWriter.quoted("\u2028\u2029"));
        assertEquals("\"é ü → 日本 😀\"", JsonWriter.quoted("é ü → 日本 😀"));
        assertEquals("\"'/<>\"", JsonWriter.quoted("'/<>"));
    }

    @Test
    void writesNumbersAsJsonAllowsThem()
    {
        assertEquals("1.5", JsonWriter.number(1.5));
        assertEquals("-0.25", JsonWriter.number(-0.25));
        assertEquals("140.0", JsonWriter.number(140));
        assertEquals("1.0E20", JsonWriter.number(1e20));
        assertEquals("null", JsonWriter.number(Double.NaN));
        assertEquals("null", JsonWriter.number(Double.POSITIVE_INFINITY));
        assertEquals("null", JsonWriter.number(Double.NEGATIVE_INFINITY));

        final StringBuilder text = new StringBuilder();
        new JsonWriter(text).beginArray()
            .value(Long.MIN_VALUE).value(Long.MAX_VALUE).value(0L).value(2.0 / 3).value(Double.NaN).value(true)
            .value(false).value((String)null).nullValue()
            .endArray();
        assertEquals("[\n  -9223372036854775808,\n  9223372036854775807,\n  0,\n  0.6666666666666666,\n  null,\n" +
            "  true,\n  false,\n  null,\n  null\n]", text.toString());
    }

    @Test
    void nestsObjectsAndArraysWithIndentation()
    {
        final StringBuilder text = new StringBuilder();
        new JsonWriter(text).beginObject()
            .name("protocol").value("shm")
            .name("rtt_p50_ns").value(312L)
            .name("empty").beginObject().endObject()
            .name("none").beginArray().endArray()
            .name("cpus").beginArray().value(0L).value(1L).endArray()
            .name("machine").beginObject().name("load \"1m\"").value(0.5).endObject()
            .endObject();
        assertEquals("{\n" +
            "  \"protocol\": \"shm\",\n" +
            "  \"rtt_p50_ns\": 312,\n" +
            "  \"empty\": {},\n" +
            "  \"none\": [],\n" +
            "  \"cpus\": [\n    0,\n    1\n  ],\n" +
            "  \"machine\": {\n    \"load \\\"1m\\\"\": 0.5\n  }\n" +
            "}", text.toString());
    }

    @Test
    void misuseIsAnError()
    {
        assertThrows(IllegalStateException.class, () -> new JsonWriter(new StringBuilder()).beginObject().value(1L));
        assertThrows(IllegalStateException.class, () -> new JsonWriter(new StringBuilder()).beginArray().name("x"));
        assertThrows(IllegalStateException.class, () -> new JsonWriter(new StringBuilder()).name("x"));
        assertThrows(IllegalStateException.class, () -> new JsonWriter(new StringBuilder()).beginArray().endObject());
        assertThrows(IllegalStateException.class, () -> new JsonWriter(new StringBuilder()).endArray());
        assertThrows(IllegalStateException.class,
            () -> new JsonWriter(new StringBuilder()).beginObject().name("x").endObject());
        assertThrows(IllegalStateException.class,
            () -> new JsonWriter(new StringBuilder()).beginObject().name("x").name("y"));
        assertThrows(IllegalStateException.class, () -> new JsonWriter(new StringBuilder()).value(1L).value(2L));
    }
}
