package dev.argus.agent.compose;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Follow-ups rewritten by rules from the previous turn's subject, and new questions left alone. */
class FollowUpTest {

  private static final List<FollowUp.Turn> ABOUT_SELLER =
      List.of(new FollowUp.Turn("What was decided in case SLR-10472?", "The account was closed."));

  @Test
  void pronounsPossessivesAndDemonstrativesTakeThePreviousSubject() {
    FollowUp.Rewrite it = FollowUp.rewrite("Which device did it use?", ABOUT_SELLER);
    assertEquals("Which device did SLR-10472 use?", it.standalone());
    assertTrue(it.rewritten());
    assertEquals(List.of("SLR-10472"), it.subjects());
    assertEquals("What is SLR-10472's phone number?", FollowUp.rewrite("What is its phone number?", ABOUT_SELLER)
        .standalone());
    assertEquals("Who reviewed case SLR-10472?", FollowUp.rewrite("Who reviewed this case?", ABOUT_SELLER)
        .standalone());
  }

  @Test
  void whatAboutXAsksThePreviousQuestionAboutX() {
    assertEquals("What was decided in case SLR-10588?", FollowUp.rewrite("What about SLR-10588?", ABOUT_SELLER)
        .standalone());
    List<FollowUp.Turn> topic = List.of(new FollowUp.Turn("What is card testing?", ""));
    assertEquals("What is BIN attacks?", FollowUp.rewrite("And BIN attacks?", topic).standalone());
    assertEquals("How do we contain card testing?", FollowUp.rewrite("How do we contain it?", topic).standalone());
  }

  @Test
  void aQuestionThatNamesItsOwnSubjectOrHasNoHistoryStays() {
    assertFalse(FollowUp.rewrite("Which device did SLR-10588 use?", ABOUT_SELLER).rewritten());
    assertFalse(FollowUp.rewrite("What is a chargeback?", ABOUT_SELLER).rewritten());
    assertFalse(FollowUp.rewrite("Which device did it use?", List.of()).rewritten());
  }

  @Test
  void aChainOfFollowUpsKeepsTheFirstSubject() {
    List<FollowUp.Turn> history = List.of(ABOUT_SELLER.get(0), new FollowUp.Turn("Which device did it use?", ""));
    assertEquals("Which phone did SLR-10472 use?", FollowUp.rewrite("Which phone did it use?", history).standalone());
  }
}
