package org.jpbs.server.routing;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes the endpoint tables of {@code docs/api.md} from a {@link RouteTable}, so the
 * documentation cannot drift from what the server dispatches. Each generated block sits between
 * {@code <!-- BEGIN GENERATED id -->} and {@code <!-- END GENERATED id -->}; {@link #update}
 * replaces the content of every such block (one per section, plus {@code path-variables}) and
 * leaves the prose around it. Stateless.
 */
public final class ApiDocs {
    /** The id of the block listing the path variables. */
    public static final String PATH_VARIABLES = "path-variables";

    private ApiDocs() {}

    /** The markdown table of one section's endpoints (paths without the section prefix). */
    public static String table(RouteTable<?> table, String section) {
        String prefix = table.sectionPrefix(section);
        StringBuilder sb = new StringBuilder("| method and path | parameters | answer | privileges |\n|---|---|---|---|\n");
        for (Endpoint<?> e : table.endpoints()) {
            if (!e.section().equals(section)) {
                continue;
            }
            String path = e.path().startsWith(prefix) ? e.path().substring(prefix.length()) : e.path();
            sb.append("| `").append(e.method()).append(' ').append(path).append("` | ")
                    .append(cell(params(e))).append(" | ")
                    .append(cell(e.answer() + (e.body() == Endpoint.Body.RAW ? " (parameters in the query; the body is raw data)" : "")))
                    .append(" | ").append(cell(e.permission().doc())).append(" |\n");
        }
        return sb.toString();
    }

    /** The markdown table of the path variables. */
    public static String pathVariables(RouteTable<?> table) {
        StringBuilder sb = new StringBuilder("| path variable | type |\n|---|---|\n");
        for (RouteTable.PathVar v : table.pathVars()) {
            sb.append("| `{").append(v.name()).append("}` | ").append(cell(v.type())).append(" |\n");
        }
        return sb.toString();
    }

    private static String params(Endpoint<?> e) {
        List<String> out = new ArrayList<>();
        List<String> groups = new ArrayList<>();
        for (Param p : e.params()) {
            if (p.group() != null) {
                if (!groups.contains(p.group())) {
                    groups.add(p.group());
                    out.add(p.group());
                }
                continue;
            }
            out.add("`" + p.name() + "` (" + p.type() + (p.required() ? ", required" : "") + ")");
        }
        return out.isEmpty() ? "\u2013" : String.join(", ", out);
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }

    /**
     * {@code doc} with every generated block rewritten from {@code table}.
     *
     * @throws IllegalArgumentException if a block names an unknown section or is not closed
     */
    public static String update(String doc, RouteTable<?> table) {
        StringBuilder out = new StringBuilder();
        int pos = 0;
        while (true) {
            int begin = doc.indexOf("<!-- BEGIN GENERATED ", pos);
            if (begin < 0) {
                out.append(doc.substring(pos));
                return out.toString();
            }
            int idEnd = doc.indexOf(" -->", begin);
            String id = doc.substring(begin + "<!-- BEGIN GENERATED ".length(), idEnd).trim();
            String endMarker = "<!-- END GENERATED " + id + " -->";
            int end = doc.indexOf(endMarker, idEnd);
            if (end < 0) {
                throw new IllegalArgumentException("docs: block " + id + " is not closed by " + endMarker);
            }
            String content;
            if (id.equals(PATH_VARIABLES)) {
                content = pathVariables(table);
            } else if (table.sections().contains(id)) {
                content = table(table, id);
            } else {
                throw new IllegalArgumentException("docs: no section '" + id + "' in the routing table");
            }
            out.append(doc, pos, idEnd + 4).append('\n').append(content);
            pos = end;
        }
    }
}
