import unittest

from word_freq import count_words, top_words


class CountWordsTest(unittest.TestCase):
    def test_counts_ignore_case(self):
        self.assertEqual(count_words("The cat and THE hat"), {"the": 2, "cat": 1, "and": 1, "hat": 1})

    def test_punctuation_is_not_a_word(self):
        self.assertEqual(count_words("Stop. Stop! don't stop?"), {"stop": 3, "don't": 1})

    def test_empty_text(self):
        self.assertEqual(count_words(""), {})


class TopWordsTest(unittest.TestCase):
    def test_most_frequent_first(self):
        self.assertEqual(top_words("b a b c b a"), [("b", 3), ("a", 2), ("c", 1)])

    def test_ties_in_alphabetical_order(self):
        self.assertEqual(
            top_words("pear apple fig apple fig pear plum"),
            [("apple", 2), ("fig", 2), ("pear", 2), ("plum", 1)],
        )

    def test_first_n(self):
        self.assertEqual(top_words("to be or not to be", n=2), [("be", 2), ("to", 2)])


if __name__ == "__main__":
    unittest.main()
