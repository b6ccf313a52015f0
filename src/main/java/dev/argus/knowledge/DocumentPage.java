package dev.argus.knowledge;

import java.util.List;

/** One page of documents (without their text) and the total count matching the listing. */
public record DocumentPage(List<Document> documents, long total) {
}
