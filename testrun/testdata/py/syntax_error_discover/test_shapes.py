import unittest

from shapes import area


class ShapesTest(unittest.TestCase):
    def test_area(self):
        self.assertEqual(area(2, 3), 6)

    def test_square(self):
        self.assertEqual(area(2, 2), 4)
