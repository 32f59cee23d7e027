import unittest

from leap import days_in_year, is_leap


class LeapTest(unittest.TestCase):
    def test_ordinary_year(self):
        self.assertFalse(is_leap(2023))

    def test_divisible_by_four(self):
        self.assertTrue(is_leap(2024))

    def test_century(self):
        self.assertFalse(is_leap(1900))

    def test_divisible_by_four_hundred(self):
        self.assertTrue(is_leap(2000))

    def test_far_future(self):
        self.assertTrue(is_leap(2400))
        self.assertFalse(is_leap(2100))

    def test_days_in_year(self):
        self.assertEqual([days_in_year(y) for y in (1999, 2000, 2004)], [365, 366, 366])


if __name__ == "__main__":
    unittest.main()
