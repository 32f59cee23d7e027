import unittest


class OutcomeTest(unittest.TestCase):
    def test_ok(self):
        pass

    @unittest.skip("not on this machine")
    def test_skipped(self):
        pass

    @unittest.expectedFailure
    def test_expected_failure(self):
        self.assertEqual(1, 2)

    @unittest.expectedFailure
    def test_unexpected_success(self):
        pass

    def test_error(self):
        {}["missing"]
