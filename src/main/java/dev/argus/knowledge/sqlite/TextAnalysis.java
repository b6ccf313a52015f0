package dev.argus.knowledge.sqlite;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.DelegatingAnalyzerWrapper;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.ngram.NGramTokenizer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How the embedded store's text legs cut text into terms (the analysis the FTS5 tables had, in Lucene):
 * <ul>
 *   <li>the words field ({@link #WORDS}): Unicode word boundaries (UAX #29), possessive {@code 's}
 *       dropped, lower case, diacritics folded, Porter stemming (FTS5's {@code porter unicode61 remove_diacritics});
 *       no stop words are removed when indexing, so document lengths count every word;</li>
 *   <li>the trigram field ({@link #TRIGRAMS}): every 3 characters of the lower-cased, folded title and text (FTS5's
 *       {@code trigram} tokenizer).</li>
 * </ul>
 * Query terms pass through the same chains, so a query term and an indexed term meet in the same form.
 */
final class TextAnalysis {

  /** The document's title (see {@link TextIndex#TITLE_COPIES}) and the chunk's text, analysed into stemmed words. */
  static final String WORDS = "words";
  /** Title and text as overlapping 3-character grams. */
  static final String TRIGRAMS = "trigrams";

  private static final Analyzer WORD_ANALYZER = new Analyzer() {
    @Override
    protected TokenStreamComponents createComponents(String field) {
      Tokenizer source = new StandardTokenizer();
      TokenStream out = new EnglishPossessiveFilter(source);
      out = new LowerCaseFilter(out);
      out = new ASCIIFoldingFilter(out);
      return new TokenStreamComponents(source, new PorterStemFilter(out));
    }
  };

  private static final Analyzer TRIGRAM_ANALYZER = new Analyzer() {
    @Override
    protected TokenStreamComponents createComponents(String field) {
      Tokenizer source = new NGramTokenizer(3, 3);
      return new TokenStreamComponents(source, new ASCIIFoldingFilter(new LowerCaseFilter(source)));
    }

    @Override
    protected TokenStream normalize(String field, TokenStream in) {
      return new ASCIIFoldingFilter(new LowerCaseFilter(in));
    }
  };

  /** The analyzer of each field, for the index writer. */
  static final Analyzer PER_FIELD = new DelegatingAnalyzerWrapper(Analyzer.PER_FIELD_REUSE_STRATEGY) {
    @Override
    protected Analyzer getWrappedAnalyzer(String field) {
      return TRIGRAMS.equals(field) ? TRIGRAM_ANALYZER : WORD_ANALYZER;
    }
  };

  private TextAnalysis() {
  }

  /** The distinct stems of {@code words} (already lower-cased query words), in order. */
  static List<String> stems(List<String> words) {
    Set<String> out = new LinkedHashSet<>();
    for (String w : words) {
      try (TokenStream ts = WORD_ANALYZER.tokenStream(WORDS, w)) {
        CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
        ts.reset();
        while (ts.incrementToken()) {
          out.add(term.toString());
        }
        ts.end();
      } catch (IOException e) {
        throw new UncheckedIOException(e); // cannot happen on a String
      }
    }
    return new ArrayList<>(out);
  }

  /** A query trigram in the index's form (lower case, diacritics folded). */
  static String trigram(String gram) {
    BytesRef normalized = TRIGRAM_ANALYZER.normalize(TRIGRAMS, gram);
    return normalized.utf8ToString();
  }
}
