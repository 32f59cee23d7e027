import unittest

from sizes import quota_bytes


class QuotaTest(unittest.TestCase):
    def test_small_plan(self):
        self.assertEqual(quota_bytes(2), 2000000)

    def test_large_plan(self):
        self.assertEqual(quota_bytes(500), 500000000)
