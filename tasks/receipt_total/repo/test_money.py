import unittest

from money import show, to_cents


class MoneyTest(unittest.TestCase):
    def test_whole_amount(self):
        self.assertEqual(to_cents("3"), 300)

    def test_cents_that_floats_miss(self):
        self.assertEqual(to_cents("4.35"), 435)

    def test_show(self):
        self.assertEqual(show(1205), "$12.05")
