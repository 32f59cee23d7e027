import sys
import unittest


class MiscTest(unittest.TestCase):
    def test_documented(self):
        """A test with a docstring prints it on its own line."""
        self.assertTrue(True)

    def test_prints(self):
        print("some output from the test")
        sys.stdout.flush()
        self.assertTrue(True)

    def test_subtests(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertLess(i, 1)

    def test_subtests_pass(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertLess(i, 5)
