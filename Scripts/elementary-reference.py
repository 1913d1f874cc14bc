#!/usr/bin/env python3
"""The reference values for calc's elementary functions (issue 22, SPEC §9 "Digits").

For each function, arguments are drawn from a SplitMix64 stream that
Tests/CalcDecimalTests/ElementaryReferenceTests.swift draws identically; each argument's value
is computed with mpmath at 110 digits and rounded to 34 significant digits, half to even. The
fixture keeps, per argument, an 8-hex-digit FNV-1a hash of the rounded result written as
`[-]coefficient e exponent` (coefficient without trailing zeros), or `?` where 80 digits cannot
decide the rounding (the value lies within 10^-80 of a midpoint: calc then only has to be
faithful), `ovf` beyond SPEC §9's limits (from 10^10000, nonzero below 10^-9999), or `skip`. Hashes keep the checked-in file small (9 bytes a value); the test prints
calc's value when a hash differs.

SPEC §9's own rules are applied as calc applies them, so that the reference is the value the spec
asks for: an exponent within 10^-32 of p/q (q ≤ 1000) counts as p/q, a radian argument within
10^-32 (relative) of n·P/2 with n < 2,000,000 (P = π to 34 digits) counts as that multiple;
larger radian arguments are exact decimals, reduced with 400 digits of π (`largeradian`: sin …
cot of radians from 10^6 to 10^99, random or k·P/2 rounded to 34 digits). asec, acsc and acot
are of the exact argument (not of its reciprocal rounded to 34 digits), half of them near ±1.

Usage: Scripts/elementary-reference.py [COUNT] > Tests/CalcDecimalTests/Fixtures/elementary-reference.txt
"""
import sys
from decimal import Decimal, Context, ROUND_FLOOR, ROUND_HALF_EVEN, getcontext
from fractions import Fraction
import mpmath

mpmath.mp.dps = 110
# Arithmetic on decimals outside D34 is exact: no operation here rounds to 28 digits by default.
getcontext().prec = 400
getcontext().Emax = 999999
getcontext().Emin = -999999
MASK = (1 << 64) - 1
D34 = Context(prec=34, rounding=ROUND_HALF_EVEN, Emax=999999, Emin=-999999)
P34 = Decimal("3.141592653589793238462643383279503")


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, bound):
        return self.next() % bound


def draw(rng, low, high, signed):
    """A decimal of 1 to 34 digits whose leading digit is at 10^m, m in low...high."""
    k = 1 + rng.below(34)
    a = rng.next()
    b = rng.next()
    c = ((a << 64) | b) % (10 ** k)
    if c == 0:
        c = 1
    m = low + rng.below(high - low + 1)
    e = m - (len(str(c)) - 1)
    negative = signed and rng.below(2) == 1
    return Decimal((1 if negative else 0, tuple(int(d) for d in str(c)), e))


def mp(x):
    return mpmath.mpf(str(x))


def floor_log10(a, b):
    """floor(log10(a / b)) for positive integers."""
    length = len(str(a)) - len(str(b))
    if length >= 0:
        return length if a >= b * 10 ** length else length - 1
    return length if a * 10 ** (-length) >= b else length - 1


def fraction_near(y, tolerance):
    """calc's Decimal34.fraction(near:tolerance:) on an exact value y (a Fraction)."""
    if y == 0:
        return None
    n, d = abs(y.numerator), y.denominator
    m = floor_log10(n, d)
    if not (-4 < m < 15):
        return None
    for q in range(1, 1001):
        scaled = n * q  # over d
        p = (2 * scaled + d) // (2 * d)
        difference = abs(scaled - p * d)
        if difference == 0:
            return (p if y > 0 else -p, q)
        if floor_log10(difference, d) < floor_log10(scaled, d) - tolerance:
            return (p if y > 0 else -p, q)
    return None


def rounded(value):
    """(text of the correctly rounded result, decided) for an mpf value."""
    if value == 0:
        return "0e0", True
    text = mpmath.nstr(value, 105, strip_zeros=False, min_fixed=1, max_fixed=0)
    exact = Decimal(text)
    r = D34.plus(exact)
    # Distance to the nearest midpoint, relative.
    sign, digits, exp = r.as_tuple()
    wide = Context(prec=300, Emax=999999, Emin=-999999)
    unit = Decimal((0, (1,), exp))
    half = wide.divide(unit, 2)
    low = wide.subtract(abs(r), half)
    high = wide.add(abs(r), half)
    distance = min(abs(wide.subtract(abs(exact), low)), abs(wide.subtract(abs(exact), high)))
    decided = distance > wide.multiply(abs(exact), Decimal("1e-80"))
    coefficient = int("".join(map(str, digits)))
    while coefficient % 10 == 0 and coefficient != 0:
        coefficient //= 10
        exp += 1
    return ("-" if sign else "") + "%de%d" % (coefficient, exp), decided


def fnv(text):
    h = 0xCBF29CE484222325
    for byte in text.encode():
        h = ((h ^ byte) * 0x100000001B3) & MASK
    return "%08x" % (h & 0xFFFFFFFF)


def trig_argument(rng, unit):
    """Every fourth argument near a multiple of 90° (100 grad, P/2 radians)."""
    if rng.below(4) == 0:
        n = rng.below(21)
        delta = draw(rng, -30, -3, True)
        if unit == "deg":
            base = Decimal(90 * n)
        elif unit == "grad":
            base = Decimal(100 * n)
        else:
            base = D34.divide(D34.multiply(Decimal(n), P34), Decimal(2))
        return D34.add(base, delta)
    return draw(rng, -20, 20, True)


def radians(x, unit):
    """(the angle in radians, whether it is an exact multiple of 90°): radians snapped as calc
    snaps them, to n·P/2 when within 10^-32·|x| of it and n < 2,000,000 (SPEC §9); larger
    arguments are exact decimals, reduced here with 400 digits of π."""
    if unit == "deg":
        return mp(x) * mpmath.pi / 180, x % 90 == 0
    if unit == "grad":
        return mp(x) * mpmath.pi / 200, x % 100 == 0
    half = Decimal(str(mpmath.nstr(mpmath.pi / 2, 110)))
    n = int((abs(x) / half).to_integral_value()) if x != 0 else 0
    if n < 2000000:
        snapped = Context(prec=200).multiply(P34, Decimal(n)) / 2
        distance = abs(abs(x) - snapped)
        if distance == 0 or (abs(x) != 0 and distance.adjusted() < abs(x).adjusted() - 32):
            angle = n * mpmath.pi / 2
            return (-angle if x < 0 else angle), True
    return mp(x), False


CIRCULAR = ["sin", "cos", "tan", "sec", "csc", "cot"]


def circular(name, x, unit):
    """sin … cot of x in unit as calc computes them: a pole is None (an error, not drawn)."""
    with mpmath.workdps(400):
        r, exact = radians(x, unit)
        s, c = mpmath.sin(r), mpmath.cos(r)
        # Exact multiples of 90° give exact zeros.
        if exact:
            quarter = int(mpmath.nint(r / (mpmath.pi / 2))) % 4
            s, c = [(0, 1), (1, 0), (0, -1), (-1, 0)][quarter]
            s, c = mpmath.mpf(s), mpmath.mpf(c)
        values = {"sin": s, "cos": c, "tan": (s / c) if c != 0 else None,
                  "sec": (1 / c) if c != 0 else None, "csc": (1 / s) if s != 0 else None,
                  "cot": (c / s) if s != 0 and c != 0 else None}
        value = values[name]
        return None if value is None else +value


def to_unit(r, unit):
    return r * 180 / mpmath.pi if unit == "deg" else r * 200 / mpmath.pi if unit == "grad" else r


UNITS = ["deg", "rad", "grad"]


def rational_power(x, p, q):
    value = mpmath.power(abs(mp(x)), mpmath.mpf(p) / q)
    return -value if x < 0 and p % 2 == 1 else value


def power_value(x, y):
    if y == y.to_integral_value():
        return mpmath.power(mp(x), int(y))
    f = fraction_near(Fraction(y), 32)
    if f:
        return rational_power(x, f[0], f[1])
    return mpmath.power(mp(x), mp(y))


def case(name, rng):
    """(argument text for the test's message, value), value None for skip."""
    if name == "exp":
        x = draw(rng, -30, 4, True)
        return [x], mpmath.exp(mp(x))
    if name == "ln":
        x = draw(rng, -300, 300, False)
        return [x], mpmath.log(mp(x))
    if name == "log10":
        x = draw(rng, -300, 300, False)
        return [x], mpmath.log10(mp(x))
    if name == "pow10":
        x = draw(rng, -30, 3, True)
        return [x], power_value(Decimal(10), x)
    if name == "pow2":
        x = draw(rng, -30, 4, True)
        return [x], power_value(Decimal(2), x)
    if name in ("sin", "cos", "tan", "sec", "csc", "cot"):
        unit = UNITS[rng.below(3)]
        x = trig_argument(rng, unit)
        return [unit, x], circular(name, x, unit)
    if name == "largeradian":
        # sin … cot of radians from 10^6 to 10^99: random, or k·P/2 rounded to 34 digits.
        function = CIRCULAR[rng.below(6)]
        if rng.below(2) == 0:
            x = draw(rng, 6, 99, True)
        else:
            k = draw(rng, 5, 66, False).to_integral_value(rounding=ROUND_FLOOR)
            x = D34.divide(D34.multiply(k, P34), Decimal(2))
            if rng.below(2) == 1:
                x = x.copy_negate()
        return [function, x], circular(function, x, "rad")
    if name in ("asec", "acsc", "acot"):
        unit = UNITS[rng.below(3)]
        if rng.below(2) == 0:
            # Near ±1, from either side for acot.
            x = D34.add(Decimal(1), draw(rng, -33, -1, name == "acot"))
        else:
            x = draw(rng, 0, 30, False) if name != "acot" else draw(rng, -30, 30, False)
        if rng.below(2) == 1:
            x = x.copy_negate()
        with mpmath.workdps(250):
            value = getattr(mpmath, name)(mp(x))
            return [unit, x], +to_unit(value, unit)
    if name in ("asin", "acos"):
        unit = UNITS[rng.below(3)]
        x = draw(rng, -30, -1, True)
        f = mpmath.asin if name == "asin" else mpmath.acos
        return [unit, x], to_unit(f(mp(x)), unit)
    if name == "atan":
        unit = UNITS[rng.below(3)]
        x = draw(rng, -30, 30, True)
        return [unit, x], to_unit(mpmath.atan(mp(x)), unit)
    if name in ("sinh", "cosh", "tanh"):
        x = draw(rng, -30, 3, True)
        return [x], getattr(mpmath, name)(mp(x))
    if name == "asinh":
        x = draw(rng, -30, 30, True)
        return [x], mpmath.asinh(mp(x))
    if name == "acosh":
        x = D34.add(Decimal(1), draw(rng, -33, 30, False))
        return [x], mpmath.acosh(mp(x))
    if name == "atanh":
        x = draw(rng, -30, -1, True)
        return [x], mpmath.atanh(mp(x))
    if name == "power":
        x = draw(rng, -3, 3, False)
        y = draw(rng, -3, 1, True)
        return [x, y], power_value(x, y)
    if name == "negativepower":
        x = draw(rng, -3, 3, False).copy_negate()
        q = 3 + 2 * rng.below(499)
        p = rng.below(61) - 30
        f = Fraction(p, q)
        if f.denominator % 2 == 0 or f == 0:
            return [x, "skip"], None
        y = D34.divide(Decimal(p), Decimal(q))
        return [x, y], power_value(x, y)
    if name == "root":
        x = draw(rng, -10, 10, False)
        y = draw(rng, -1, 2, True)
        inverse = Fraction(1) / Fraction(y)
        f = fraction_near(Fraction(Context(prec=60).divide(Decimal(1), y)), 32)
        if f:
            return [x, y], rational_power(x, f[0], f[1])
        return [x, y], mpmath.power(mp(x), 1 / mp(y))
    if name == "logy":
        x = draw(rng, -20, 20, False)
        y = draw(rng, -5, 5, False)
        if y == 1 or x == 1:
            return [x, y], None
        ratio = mpmath.log(mp(x)) / mpmath.log(mp(y))
        return [x, y], ratio
    if name == "factorial":
        x = draw(rng, -1, 2, True)
        if x == x.to_integral_value():
            return [x], None
        return [x], mpmath.gamma(mp(x) + 1)
    if name == "cbrt":
        x = draw(rng, -300, 300, True)
        return [x], mpmath.cbrt(abs(mp(x))) * (-1 if x < 0 else 1)
    raise ValueError(name)


FUNCTIONS = ["exp", "ln", "log10", "pow10", "pow2", "sin", "cos", "tan", "sec", "csc", "cot",
             "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
             "power", "negativepower", "root", "logy", "factorial", "cbrt",
             "largeradian", "asec", "acsc", "acot"]


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    print("# calc elementary-function reference: Scripts/elementary-reference.py %d (mpmath %s)"
          % (count, mpmath.__version__))
    for index, name in enumerate(FUNCTIONS):
        rng = SplitMix64(0xCA1C_0000 + index)
        hashes = []
        for _ in range(count):
            arguments, value = case(name, rng)
            if value is None:
                hashes.append("skip")
                continue
            text, decided = rounded(value)
            coefficient, exponent = text.lstrip("-").split("e")
            magnitude = int(exponent) + len(coefficient) - 1
            if coefficient != "0" and (magnitude >= 10000 or magnitude < -9999):
                hashes.append("ovf")  # SPEC §9's limits: calc shows Overflow
            else:
                hashes.append(fnv(text) if decided else "?")
        print(name + " " + " ".join(hashes))


if __name__ == "__main__":
    main()
