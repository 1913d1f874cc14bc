#!/usr/bin/env python3
"""Day numbers and weekdays from Python's proleptic Gregorian calendar (issue 50, SPEC §13).

The second, independent check of date mode's day counts and weekdays (the first is
Sources/CalcTestSupport/DateModel.swift): Python's `datetime.date` counts days and weekdays in
the proleptic Gregorian calendar, as SPEC §13 does. Each row is a date in ISO form, its day
number (days since 1601-01-01, so a difference of two rows is the days between them) and its
weekday in English. The dates: both ends of the range; 28 and 29 February, 1 March and the last
of every month of the century years 1700, 1800, 1900, 2000, 2100, 2400 and of 2024–2026; and
600 drawn with a fixed seed across 1601–9999.

Usage: Scripts/date-reference.py > Tests/CalculatorEngineTests/Fixtures/date-reference.tsv
"""
import calendar
import datetime
import random

EPOCH = datetime.date(1601, 1, 1).toordinal()
NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def main():
    dates = {datetime.date(1601, 1, 1), datetime.date(9999, 12, 31)}
    for year in [1700, 1800, 1900, 2000, 2100, 2400, 2024, 2025, 2026]:
        dates.add(datetime.date(year, 2, 28))
        dates.add(datetime.date(year, 3, 1))
        if calendar.isleap(year):
            dates.add(datetime.date(year, 2, 29))
        for month in range(1, 13):
            dates.add(datetime.date(year, month, calendar.monthrange(year, month)[1]))
    generator = random.Random(50)
    first, last = datetime.date(1601, 1, 1).toordinal(), datetime.date(9999, 12, 31).toordinal()
    while len(dates) < 700:
        dates.add(datetime.date.fromordinal(generator.randint(first, last)))
    print("# Day numbers (days since 1601-01-01) and weekdays from Python's proleptic Gregorian")
    print("# calendar, written by Scripts/date-reference.py.")
    print("# date\tday number\tweekday")
    for date in sorted(dates):
        print(f"{date.isoformat()}\t{date.toordinal() - EPOCH}\t{NAMES[date.weekday()]}")


main()
