import unittest

from no_such_module import thing


class ModTest(unittest.TestCase):
    def test_one(self):
        self.assertTrue(thing)

    def test_two(self):
        self.assertTrue(thing)
