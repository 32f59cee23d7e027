import unittest

from sizes import human


class HumanTest(unittest.TestCase):
    def test_bytes(self):
        self.assertEqual(human(512), "512 B")

    def test_kibibytes(self):
        self.assertEqual(human(10240), "10.0 KiB")

    def test_mebibytes(self):
        self.assertEqual(human(3 * 1024 * 1024), "3.0 MiB")
