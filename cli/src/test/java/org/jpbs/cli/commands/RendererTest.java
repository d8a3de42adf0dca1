package org.jpbs.cli.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.jpbs.cli.commands.OutputFormatOption.Format;
import org.junit.jupiter.api.Test;

/** The renderer's JSON formats, byte for byte as proxmox-backup-client prints them (serde_json). */
class RendererTest {
    private static String render(Format f, String json) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new Renderer(new PrintStream(bytes, true, StandardCharsets.UTF_8), f).json(new ObjectMapper().readTree(json));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void jsonPrettyIsSerdesPrettyFormat() throws Exception {
        String data = "{\"backup-type\":\"vm\",\"files\":[\"a\",\"b\"],\"empty\":[],\"none\":{},\"nested\":[{\"n\":1}]}";
        assertEquals("""
                {
                  "backup-type": "vm",
                  "files": [
                    "a",
                    "b"
                  ],
                  "empty": [],
                  "none": {},
                  "nested": [
                    {
                      "n": 1
                    }
                  ]
                }
                """, render(Format.JSON_PRETTY, data));
        assertEquals("[]\n", render(Format.JSON_PRETTY, "[]"));
        assertEquals(data + "\n", render(Format.JSON, data));
    }
}
