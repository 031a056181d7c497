// Rule `text` (text/text_rule.hpp): names and reasons people read. Each refusal names its
// catalog message (the rule the reader is told); ordinary names in the four languages and beyond
// pass.
#include "text/text_rule.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tally::text {
namespace {

// The message id text_problem gives, or "" when the text may be shown.
std::string refusal(std::string_view text) {
  auto problem = text_problem(text);
  return problem ? problem->key : "";
}

TEST(TextRule, NamesInEveryLanguageOfTheVenuePass) {
  for (const char* name : {"Čeněk Šťastný", "Niccolò Dell'Acqua", "Пётр Лебедев", "Jana Nováková",
                           "Nguyễn Thị Minh Khai", "O'Brien-Smith", "李小龍", "עִבְרִית",
                           "می\u200Cخواهم",  // ZWNJ keeps Persian letters apart
                           "Team \U0001F468\u200D\U0001F469\u200D\U0001F467",  // ZWJ emoji family
                           "Ana\u00A0Lucía"}) {                                // a pasted NBSP
    EXPECT_EQ(refusal(name), "") << name;
  }
}

TEST(TextRule, ControlsAndLineSeparatorsAreRefused) {
  EXPECT_EQ(refusal("Eva\nNovak"), "rules.text.control");
  EXPECT_EQ(refusal("Eva\x1b[2J"), "rules.text.control");
  EXPECT_EQ(refusal("Eva\u2028Novak"), "rules.text.control");  // LINE SEPARATOR (Zl)
  EXPECT_EQ(refusal("Eva\u2029Novak"), "rules.text.control");  // PARAGRAPH SEPARATOR (Zp)
}

TEST(TextRule, DirectionMarksAndOtherFormatCharactersAreRefused) {
  EXPECT_EQ(refusal("Eva\u202E kvon"), "rules.text.bidi_control");
  EXPECT_EQ(refusal("Eva\u200E"), "rules.text.bidi_control");  // LRM
  EXPECT_EQ(refusal("Eva\u200F"), "rules.text.bidi_control");  // RLM
  EXPECT_EQ(refusal("Eva\u061C"), "rules.text.bidi_control");  // ALM
  EXPECT_EQ(refusal("Eva\uFFF9x"), "rules.text.format");       // interlinear annotation anchor
  EXPECT_EQ(refusal("Eva\U000E0041\U000E0042"), "rules.text.format");  // tag characters
  EXPECT_EQ(refusal("Ev\u00ADa"), "rules.text.format");                // soft hyphen
  EXPECT_EQ(refusal("\uFEFFEva"), "rules.text.format");                // a BOM inside a name
  EXPECT_EQ(refusal("E\u200Bva"), "rules.text.format");                // ZERO WIDTH SPACE
  auto problem = text_problem("Eva\uFFF9x");
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->args, (std::vector<i18n::NamedArg>{{"code", "U+FFF9"}}));
}

TEST(TextRule, BlankLookingCharactersAreRefusedEvenBesideLetters) {
  EXPECT_EQ(refusal("\u2800"), "rules.text.blank_looking");  // BRAILLE PATTERN BLANK
  EXPECT_EQ(refusal("Eva \u2800"), "rules.text.blank_looking");
  EXPECT_EQ(refusal("\u3164"), "rules.text.blank_looking");  // HANGUL FILLER
  EXPECT_EQ(refusal("\uFFA0x"), "rules.text.blank_looking");
  EXPECT_EQ(refusal("\u200D \u200C"), "rules.text.nothing_visible");  // joiners, a space
}

TEST(TextRule, FourAccentsOnALetterPassAFifthIsRefused) {
  std::string four = "e";
  for (int i = 0; i < 4; ++i) four += "\u0301";
  EXPECT_EQ(refusal(four), "");
  EXPECT_EQ(refusal(four + "\u0301"), "rules.text.combining_marks");
  std::string zalgo = "Eva";
  for (int i = 0; i < 90; ++i) zalgo += "\u0336";
  EXPECT_EQ(refusal(zalgo), "rules.text.combining_marks");
  // Marks on separate letters do not add up.
  EXPECT_EQ(refusal("e\u0301\u0301e\u0301\u0301e\u0301\u0301"), "");
}

TEST(TextRule, ANameHasAtMostTwoHundredBytesHoweverItComesIn) {
  EXPECT_FALSE(name_problem(std::string(200, 'n')));
  auto too_long = name_problem(std::string(201, 'n'));
  ASSERT_TRUE(too_long);
  EXPECT_EQ(too_long->key, "rules.text.too_long");
  // 100 two-byte letters are 200 bytes: fine; one more is not.
  std::string czech;
  for (int i = 0; i < 100; ++i) czech += "č";
  EXPECT_FALSE(name_problem(czech));
  EXPECT_TRUE(name_problem(czech + "a"));
  // The rest of the rule still applies.
  EXPECT_EQ(name_problem("\u2800")->key, "rules.text.blank_looking");
}

TEST(TextRule, InvalidUtf8IsReportedNotReadPast) {
  EXPECT_EQ(refusal("Ev\xC3"), "rules.text.not_utf8");
  EXPECT_EQ(refusal("\xED\xA0\x80"), "rules.text.not_utf8");  // an encoded surrogate
}

}  // namespace
}  // namespace tally::text
