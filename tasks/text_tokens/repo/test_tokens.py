import unittest

from tokens import tokenize, vocabulary


class TokenizeTest(unittest.TestCase):
    def test_words(self):
        self.assertEqual(tokenize("Tea, then code."), ["Tea", "then", "code"])

    def test_lower(self):
        self.assertEqual(tokenize("Tea, then code.", lower=True), ["tea", "then", "code"])

    def test_apostrophe(self):
        self.assertEqual(tokenize("it's", lower=True), ["it's"])


class VocabularyTest(unittest.TestCase):
    def test_vocabulary(self):
        self.assertEqual(vocabulary("b a B"), ["a", "b"])
