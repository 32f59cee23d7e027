"""Shipping fees, as SPEC.md sets them."""
import math

BASE_FEE = 4
PER_KG = 2
FREE_FROM = 60


def fee(weight_kg, goods_total):
    """The shipping fee in euros for a parcel of weight_kg holding goods worth goods_total."""
    if goods_total >= FREE_FROM:
        return 0
    return BASE_FEE + PER_KG * math.ceil(weight_kg)
