import unittest

from page_views import busiest, read_views, total_views


class PageViewsTest(unittest.TestCase):
    def test_total(self):
        self.assertEqual(total_views(), 42)

    def test_page_count(self):
        self.assertEqual(len(read_views()), 7)

    def test_busiest(self):
        self.assertEqual(busiest(), "/")

    def test_one_page(self):
        self.assertEqual(read_views()["/about"], 5)
