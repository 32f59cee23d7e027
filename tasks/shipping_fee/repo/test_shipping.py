import unittest

from shipping import fee

# (weight in kg, goods in euros, expected fee) for each test.
CASES = {
    "whole_kilograms": [(3, 10, 10), (1, 0, 6)],
    "half_kilogram": [(1.5, 10, 8), (2.5, 20, 10)],
    "light_parcel": [(0.4, 10, 6)],
    "free_from_sixty": [(5, 60, 0), (0.4, 75, 0)],
    "just_below_free": [(2, 59.99, 8)],
}


class FeeTest(unittest.TestCase):
    def check(self, name):
        for weight, goods, want in CASES[name]:
            self.assertEqual(fee(weight, goods), want)

    def test_whole_kilograms(self):
        self.check("whole_kilograms")

    def test_half_kilogram(self):
        self.check("half_kilogram")

    def test_light_parcel(self):
        self.check("light_parcel")

    def test_free_from_sixty(self):
        self.check("free_from_sixty")

    def test_just_below_free(self):
        self.check("just_below_free")
