import unittest


class ManyTest(unittest.TestCase):
    pass


def make(i):
    def test(self):
        self.assertNotEqual(i % 250, 7, "every 250th test fails " + "x" * 40)
    return test


for i in range(1500):
    setattr(ManyTest, "test_case_%04d" % i, make(i))
