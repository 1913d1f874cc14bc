#!/usr/bin/env python3
"""Writes Tests/CalcDecimalTests/Fixtures/fraction-reference.txt: random sequences of rational
operations worked out with Python's `fractions` and `decimal`, the reference that
`FractionReferenceTests` holds calc's `Number` and the test oracle `Fraction` (CalcTestSupport)
to (SPEC v5 §2 rule 15, issue 48).

Each line is tab-separated:
  kind  ops  rounded  value  r34  d8  s9  text
- ops: the first token is the start value, each next one an operation on the value so far:
  `+X` `-X` `*X` `/X` (X a decimal, `1.5E-20` style), `^N` (integer power), `mX` (floored mod),
  `pX` (X percent of the value: value·X/100, rule 8's form with + or - pending), `hund` (value/100),
  `sq`, `inv`, `neg`, `floor`.
- rounded: 1 once a step was rounded (its exact result needed more than 120 digits in numerator
  or denominator and was not a 34-digit decimal, or an operand was rounded), else 0.
- value: the exact value `p/q` (`p` for an integer) when not rounded, else the 34-digit value.
- r34, d8, s9: the value rounded half to even (once, from the exact value) to 34 significant
  digits; to 8 fraction digits or 34 significant digits, whichever is coarser (the display);
  to 9 significant digits (the display's scientific mantissa). Written `cEe` with no trailing
  zeros in c, `0` for zero.
- text: `:exact`'s text for an exact value (`1/3 = 0.(3)`), empty when rounded or when the text
  would be longer than 1,200 characters.

Run from the repository's root: python3 Scripts/fraction-reference.py
"""
import random
from decimal import Context, Decimal, ROUND_HALF_EVEN
from fractions import Fraction
from math import floor

CAP = 120
CONTEXT = Context(prec=34, rounding=ROUND_HALF_EVEN)
DIVISORS = [3, 7, 9, 11, 13]


def digits(n):
    return len(str(abs(n)))


def magnitude(x):
    """floor(log10 |x|) of a nonzero fraction, exactly."""
    p, q = abs(x.numerator), x.denominator
    m = digits(p) - digits(q)
    if (m >= 0 and p < q * 10**m) or (m < 0 and p * 10**(-m) < q):
        m -= 1
    return m


def round_unit(x, unit):
    """x rounded half to even to a multiple of 10^unit, as (coefficient, unit)."""
    return round(x / Fraction(10) ** unit), unit


def text(coefficient, exponent):
    if coefficient == 0:
        return "0"
    sign = "-" if coefficient < 0 else ""
    c = str(abs(coefficient))
    while c.endswith("0"):
        c = c[:-1]
        exponent += 1
    return f"{sign}{c}E{exponent}"


def round34(x):
    """x rounded to 34 significant digits, half to even, by decimal's correctly rounded quotient."""
    if x == 0:
        return Fraction(0)
    return Fraction(CONTEXT.divide(Decimal(x.numerator), Decimal(x.denominator)))


def is_decimal34(x):
    return round34(x) == x


def step(exact, rounded):
    within = digits(exact.numerator) <= CAP and digits(exact.denominator) <= CAP
    if not rounded and (within or is_decimal34(exact)):
        return exact, False
    return round34(exact), True


def expansion(x, limit=1000):
    """The decimal with the repeating part in brackets; a period past `limit` digits is cut."""
    sign = "-" if x < 0 else ""
    p, q = abs(x.numerator), x.denominator
    whole, r = divmod(p, q)
    if r == 0:
        return sign + str(whole)
    twos = fives = 0
    while q % 2 ** (twos + 1) == 0:
        twos += 1
    while q % 5 ** (fives + 1) == 0:
        fives += 1
    out = []
    for _ in range(max(twos, fives)):
        d, r = divmod(r * 10, q)
        out.append(str(d))
    if r == 0:
        return sign + str(whole) + "." + "".join(out)
    start = r
    period = []
    for _ in range(limit):
        d, r = divmod(r * 10, q)
        period.append(str(d))
        if r == start:
            return sign + str(whole) + "." + "".join(out) + "(" + "".join(period) + ")"
    return (sign + str(whole) + "." + "".join(out) + "(" + "".join(period)
            + "… (period longer than 1,000 digits)")


def exact_text(x):
    if x.denominator == 1:
        return str(x.numerator)
    return f"{x.numerator}/{x.denominator} = {expansion(x)}"


def random_decimal(r, wide=False):
    count = r.randint(1, 16)
    body = str(r.randint(10 ** (count - 1), 10 ** count - 1))
    if r.random() < 0.3:
        body = body.rstrip("0") or "1"
    point = r.randint(0, len(body))
    value = body if point == len(body) else (body[:point] or "0") + "." + body[point:]
    if wide and r.random() < 0.5:
        value += f"E{r.randint(-35, 30)}"
    if r.random() < 0.2:
        value = "-" + value
    return value


def apply(token, x, rounded):
    """The value and mark after `token`, or None when the step is not allowed (÷0, 0^-n)."""
    op, arg = token[0], token[1:]
    if token == "hund":
        return step(x / 100, rounded)
    if token == "sq":
        return step(x * x, rounded)
    if token == "inv":
        return None if x == 0 else step(1 / x, rounded)
    if token == "neg":
        return -x, rounded
    if token == "floor":
        return step(Fraction(floor(x)), rounded)
    if op == "^":
        n = int(arg)
        if n == 0:
            return Fraction(1), rounded
        if x == 0 and n < 0:
            return None
        return step(x ** n, rounded)
    y = Fraction(Decimal(arg))
    if op == "+":
        return step(x + y, rounded)
    if op == "-":
        return step(x - y, rounded)
    if op == "*":
        return step(x * y, rounded)
    if op == "/":
        return None if y == 0 else step(x / y, rounded)
    if op == "m":
        return (x, rounded) if y == 0 else step(x % y, rounded)
    if op == "p":
        return step(x * y / 100, rounded)
    raise ValueError(token)


def sequence(r, kind):
    ops = []
    if kind == "thirds":
        pending = []
        for _ in range(r.randint(2, 14)):
            if pending and r.random() < 0.45:
                ops.append("*" + str(pending.pop(r.randrange(len(pending)))))
            elif r.random() < 0.7:
                d = r.choice(DIVISORS)
                pending.append(d)
                ops.append("/" + str(d))
            else:
                ops.append(r.choice("+-") + random_decimal(r))
        ops += ["*" + str(d) for d in pending]
        if r.random() < 0.5:
            ops.append("-" + random_decimal(r))
    elif kind == "magnitudes":
        for _ in range(r.randint(2, 8)):
            if r.random() < 0.3:
                ops.append("/" + str(r.choice(DIVISORS)))
            else:
                ops.append(r.choice("+-") + random_decimal(r, wide=True))
    elif kind == "cap":
        for _ in range(r.randint(30, 90)):
            ops.append(r.choice(["/7", "/13", "/3", "/11", "*1.1", "/1.7", "+0.5"]))
        for _ in range(r.randint(1, 6)):
            ops.append(r.choice(["*7", "*13", "+1", "-1E-30", "sq", "inv", "^2"]))
    else:  # mixed
        for _ in range(r.randint(1, 10)):
            c = r.random()
            if c < 0.35:
                ops.append(r.choice("+-*/") + random_decimal(r))
            elif c < 0.5:
                ops.append("/" + str(r.choice(DIVISORS)))
            elif c < 0.58:
                ops.append("^" + str(r.randint(-3, 4)))
            elif c < 0.66:
                ops.append("m" + random_decimal(r))
            elif c < 0.74:
                ops.append("p" + random_decimal(r))
            else:
                ops.append(r.choice(["hund", "sq", "inv", "neg", "floor"]))
    return ops


def main():
    r = random.Random(4848)
    lines = []
    kinds = ["thirds"] * 120 + ["magnitudes"] * 80 + ["mixed"] * 160 + ["cap"] * 40
    for kind in kinds:
        start = random_decimal(r, wide=(kind == "magnitudes"))
        ops = sequence(r, kind)
        x, rounded = step(Fraction(Decimal(start)), False)
        kept = [start]
        for token in ops:
            result = apply(token, x, rounded)
            if result is None:
                continue
            x, rounded = result
            kept.append(token)
        value = text(*round_unit(x, magnitude(x) - 33)) if rounded and x != 0 else (
            "0" if x == 0 else (str(x.numerator) if x.denominator == 1
                                else f"{x.numerator}/{x.denominator}"))
        if x == 0:
            r34 = d8 = s9 = "0"
        else:
            m = magnitude(x)
            r34 = text(*round_unit(x, m - 33))
            d8 = text(*round_unit(x, max(-8, m - 33)))
            s9 = text(*round_unit(x, m - 8))
        shown = "" if rounded else exact_text(x)
        if len(shown) > 1200:
            shown = ""
        lines.append("\t".join([kind, " ".join(kept), str(int(rounded)), value, r34, d8, s9, shown]))
    with open("Tests/CalcDecimalTests/Fixtures/fraction-reference.txt", "w") as out:
        out.write("# Written by Scripts/fraction-reference.py (Python's fractions and decimal): "
                  "kind, ops, rounded, value, r34, d8, s9, :exact text.\n")
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
