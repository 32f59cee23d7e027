import unittest

from receipt import receipt, total


class ReceiptTest(unittest.TestCase):
    def test_total(self):
        self.assertEqual(total(["4.35", "1.10"]), 545)

    def test_total_of_nothing(self):
        self.assertEqual(total([]), 0)

    def test_receipt_lines(self):
        self.assertEqual(receipt(["2.50", "0.05"]), "$2.50\n$0.05\ntotal $2.55")

    def test_receipt_rounding(self):
        self.assertEqual(receipt(["0.29"]), "$0.29\ntotal $0.29")
