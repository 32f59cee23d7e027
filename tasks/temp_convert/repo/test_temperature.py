import unittest

from temperature import c_to_f, c_to_k, f_to_c


class TemperatureTest(unittest.TestCase):
    def test_freezing_in_fahrenheit(self):
        self.assertEqual(c_to_f(0), 32)

    def test_boiling_in_fahrenheit(self):
        self.assertEqual(c_to_f(100), 212)

    def test_boiling_in_celsius(self):
        self.assertEqual(f_to_c(212), 100)

    def test_freezing_in_celsius(self):
        self.assertEqual(f_to_c(32), 0)

    def test_kelvin(self):
        self.assertAlmostEqual(c_to_k(25), 298.15)


if __name__ == "__main__":
    unittest.main()
