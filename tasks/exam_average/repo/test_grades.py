import unittest

from grades import average, passed


class AverageTest(unittest.TestCase):
    def test_two_scores(self):
        self.assertEqual(average([70, 75]), 72.5)

    def test_ignores_typing_mistakes(self):
        self.assertEqual(average([70, 750, 75, -7]), 72.5)

    def test_bounds_count(self):
        self.assertEqual(average([0, 100]), 50)


class PassedTest(unittest.TestCase):
    def test_passed(self):
        self.assertEqual(passed([49, 50, 90, 101]), 2)
