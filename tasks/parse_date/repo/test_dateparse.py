import datetime
import unittest

from dateparse import parse_date


class ParseDateTest(unittest.TestCase):
    def test_iso_date(self):
        self.assertEqual(parse_date("2024-03-05"), datetime.date(2024, 3, 5))

    def test_month_name(self):
        self.assertEqual(parse_date("March 5, 2024"), datetime.date(2024, 3, 5))

    def test_short_month_name(self):
        self.assertEqual(parse_date("Dec 25, 2023"), datetime.date(2023, 12, 25))

    def test_any_case_and_spaces(self):
        self.assertEqual(parse_date("  FEBRUARY 29, 2024 "), datetime.date(2024, 2, 29))

    def test_first_month(self):
        self.assertEqual(parse_date("Jan 1, 2000"), datetime.date(2000, 1, 1))

    def test_unknown_month(self):
        with self.assertRaises(ValueError):
            parse_date("Smarch 3, 2024")

    def test_not_a_date(self):
        with self.assertRaises(ValueError):
            parse_date("yesterday")


if __name__ == "__main__":
    unittest.main()
