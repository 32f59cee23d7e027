import unittest


class CalcTest(unittest.TestCase):
    def test_add(self):
        self.assertEqual(1 + 1, 2)

    def test_sub(self):
        self.assertEqual(3 - 1, 2)

    def test_mul(self):
        self.assertEqual(2 * 3, 6)
