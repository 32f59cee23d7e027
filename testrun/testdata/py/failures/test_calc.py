import unittest

from calc import div


class CalcTest(unittest.TestCase):
    def test_div(self):
        self.assertEqual(div(7, 2), 3.5)

    def test_div_zero(self):
        self.assertEqual(div(1, 0), 0)

    def test_ok(self):
        self.assertEqual(div(4, 2), 2)

    def test_list(self):
        self.assertEqual([div(9, 3), div(8, 3)], [3, 2.5])
