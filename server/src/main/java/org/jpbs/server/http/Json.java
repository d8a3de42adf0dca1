package org.jpbs.server.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The server's shared Jackson mapper. Its buffers come from a shared pool instead of Jackson's
 * default per-thread one: requests run on virtual threads, each new, so per-thread buffers would
 * be allocated afresh for every response.
 */
public final class Json {
    /** The mapper (thread-safe). */
    public static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
            .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool()).build()).build();

    private Json() {}
}
